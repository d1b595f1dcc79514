import { createHmac, randomBytes } from 'node:crypto'
import { AppError } from '../../errors.js'

const HOUR_MS = 3_600_000

interface Entry {
  /** Creation times within the last hour. */
  generated: number[]
  /** The end of each address this client made, by address: it counts as active until then. */
  activeUntil: Map<string, number>
}

/**
 * The per-client address limits as the inbox rules see them: an AddressLimiter in this process, one in the cluster's
 * primary reached over IPC (several API processes on one host), or PostgreSQL's tables (several nodes on PostgreSQL).
 * Reserving checks and counts in one step, so two requests from one client racing through different processes cannot
 * both take the last place. A place is held by address, so it follows that address's end whoever changes it.
 */
export interface AddressLimits {
  /** Counts `address` (about to be made, ending at `expiresAt`) for `ip`, or throws the 429 AppError when none is allowed now. */
  reserve(ip: string, address: string, expiresAt: number, now: number): void | Promise<void>
  /** Gives back a reservation whose address could not be created after all. */
  release(ip: string, address: string, now: number): void | Promise<void>
  /**
   * The address now ends at `expiresAt` (a burn, a longer keep, or `now` when released or burned): its active place is
   * held until then. The hourly count stays: creating and releasing in a loop must not get round the per-hour limit.
   */
  moveEnd(address: string, expiresAt: number): void | Promise<void>
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
  /** Which client's entry holds each address's place. */
  private readonly holders = new Map<string, string>()

  constructor(
    private readonly maxActive: number,
    private readonly maxPerHour: number,
  ) {}

  private keyOf(ip: string): string {
    return createHmac('sha256', this.key).update(ip).digest('base64url')
  }

  private prune(k: string, entry: Entry, now: number): void {
    entry.generated = entry.generated.filter((t) => t > now - HOUR_MS)
    for (const [address, until] of entry.activeUntil) {
      if (until > now) continue
      entry.activeUntil.delete(address)
      if (this.holders.get(address) === k) this.holders.delete(address)
    }
    if (entry.generated.length === 0 && entry.activeUntil.size === 0) this.entries.delete(k)
  }

  /** Throws 429 when the client may not generate another address now. */
  check(ip: string, now = Date.now()): void {
    const k = this.keyOf(ip)
    const entry = this.entries.get(k)
    if (!entry) return
    this.prune(k, entry, now)
    if (entry.generated.length >= this.maxPerHour) throw hourlyLimitReached(this.maxPerHour)
    if (entry.activeUntil.size >= this.maxActive) throw activeLimitReached(this.maxActive)
  }

  reserve(ip: string, address: string, expiresAt: number, now = Date.now()): void {
    this.check(ip, now)
    const k = this.keyOf(ip)
    const entry = this.entries.get(k) ?? { generated: [], activeUntil: new Map<string, number>() }
    entry.generated.push(now)
    entry.activeUntil.set(address, expiresAt)
    this.entries.set(k, entry)
    this.holders.set(address, k)
  }

  release(ip: string, address: string, now = Date.now()): void {
    const k = this.keyOf(ip)
    const entry = this.entries.get(k)
    if (!entry) return
    const i = entry.generated.lastIndexOf(now)
    if (i !== -1) entry.generated.splice(i, 1)
    if (this.holders.get(address) === k) entry.activeUntil.set(address, 0)
    this.prune(k, entry, now)
  }

  moveEnd(address: string, expiresAt: number): void {
    const k = this.holders.get(address)
    const entry = k === undefined ? undefined : this.entries.get(k)
    if (entry?.activeUntil.has(address)) entry.activeUntil.set(address, expiresAt)
  }

  /** Drops entries that no longer limit anything (called by the sweeper). */
  sweep(now = Date.now()): void {
    for (const [k, entry] of this.entries) this.prune(k, entry, now)
  }
}
