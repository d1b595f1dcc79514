import { createHmac, randomBytes } from 'node:crypto'
import type { AddressLimits } from './shared-state.js'
import { activeLimitReached, hourlyLimitReached } from './address-limit-errors.js'

const HOUR_MS = 3_600_000

interface Entry {
  /** Creation times within the last hour. */
  generated: number[]
  /** The end of each address this client made, by address: it counts as active until then. */
  activeUntil: Map<string, number>
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
