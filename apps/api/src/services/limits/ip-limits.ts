import { createHmac, randomBytes } from 'node:crypto'
import { AppError } from '../../errors.js'

const HOUR_MS = 3_600_000

interface Entry {
  /** Creation times within the last hour. */
  generated: number[]
  /** Expiry times of the addresses this client still has alive. */
  activeUntil: number[]
}

/**
 * The per-client address limits as the inbox rules see them: an AddressLimiter in this process, one in the cluster's
 * primary reached over IPC (several API processes on one host), or PostgreSQL's tables (several nodes on PostgreSQL).
 * Reserving checks and counts in one step, so two requests from one client racing through different processes cannot
 * both take the last place.
 */
export interface AddressLimits {
  /** Counts one new address for `ip`, or throws the 429 AppError when its limits allow none now. */
  reserve(ip: string, expiresAt: number, now: number): void | Promise<void>
  /** Gives back a reservation whose address could not be created after all. */
  release(ip: string, expiresAt: number, now: number): void | Promise<void>
  /**
   * Frees the active place of an address its holder released (deleted) before it expired. The hourly count stays:
   * creating and releasing in a loop must not get round the per-hour limit.
   */
  free(ip: string, expiresAt: number): void | Promise<void>
  /** Drops what no longer limits anything (called by the sweeper). */
  sweep(now: number): void
}

/** The 429 a client gets past the hourly limit, whichever limiter counts. */
export function hourlyLimitReached(maxPerHour: number): AppError {
  return new AppError('rate_limited', `You can create at most ${maxPerHour} addresses per hour. Please try again later.`)
}

/** The 429 a client gets with every active place taken, whichever limiter counts. */
export function activeLimitReached(maxActive: number): AppError {
  return new AppError('too_many_active_addresses', `You already have ${maxActive} active addresses. Release one you no longer need, or wait until one expires.`)
}

/**
 * Per-client limits on address generation (spec §9). Memory only, and keyed by an HMAC of the IP under a key that
 * lives only in this process, so not even the limiter's memory holds a raw IP. Entries vanish once they hold nothing.
 */
export class AddressLimiter implements AddressLimits {
  private readonly key = randomBytes(32)
  private readonly entries = new Map<string, Entry>()

  constructor(
    private readonly maxActive: number,
    private readonly maxPerHour: number,
  ) {}

  private keyOf(ip: string): string {
    return createHmac('sha256', this.key).update(ip).digest('base64url')
  }

  private prune(entry: Entry, now: number): void {
    entry.generated = entry.generated.filter((t) => t > now - HOUR_MS)
    entry.activeUntil = entry.activeUntil.filter((t) => t > now)
  }

  /** Throws 429 when the client may not generate another address now. */
  check(ip: string, now = Date.now()): void {
    const entry = this.entries.get(this.keyOf(ip))
    if (!entry) return
    this.prune(entry, now)
    if (entry.generated.length >= this.maxPerHour) throw hourlyLimitReached(this.maxPerHour)
    if (entry.activeUntil.length >= this.maxActive) throw activeLimitReached(this.maxActive)
  }

  record(ip: string, expiresAt: number, now = Date.now()): void {
    const k = this.keyOf(ip)
    const entry = this.entries.get(k) ?? { generated: [], activeUntil: [] }
    entry.generated.push(now)
    entry.activeUntil.push(expiresAt)
    this.entries.set(k, entry)
  }

  reserve(ip: string, expiresAt: number, now = Date.now()): void {
    this.check(ip, now)
    this.record(ip, expiresAt, now)
  }

  release(ip: string, expiresAt: number, now = Date.now()): void {
    const k = this.keyOf(ip)
    const entry = this.entries.get(k)
    if (!entry) return
    removeOne(entry.generated, now)
    removeOne(entry.activeUntil, expiresAt)
    if (entry.generated.length === 0 && entry.activeUntil.length === 0) this.entries.delete(k)
  }

  free(ip: string, expiresAt: number): void {
    const k = this.keyOf(ip)
    const entry = this.entries.get(k)
    if (!entry) return
    removeOne(entry.activeUntil, expiresAt)
    if (entry.generated.length === 0 && entry.activeUntil.length === 0) this.entries.delete(k)
  }

  /** Drops entries that no longer limit anything (called by the sweeper). */
  sweep(now = Date.now()): void {
    for (const [k, entry] of this.entries) {
      this.prune(entry, now)
      if (entry.generated.length === 0 && entry.activeUntil.length === 0) this.entries.delete(k)
    }
  }
}

function removeOne(values: number[], value: number): void {
  const i = values.lastIndexOf(value)
  if (i !== -1) values.splice(i, 1)
}
