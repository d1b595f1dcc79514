import { createHmac, randomBytes } from 'node:crypto'

import type { MissLimits } from './shared-state.js'

interface Window {
  count: number
  resetAt: number
}

/**
 * Fixed one-minute windows, in memory only, keyed by an HMAC of the client under a key that never leaves this process
 * (no raw IP in memory). At most `maxClients` windows are kept: when full, expired ones go, then the oldest — a flood of
 * fresh clients can cost a client its count, never this process its memory.
 */
export class MissCounter implements MissLimits {
  private readonly key = randomBytes(32)
  private readonly windows = new Map<string, Window>()

  constructor(
    private readonly maxPerWindow: number,
    private readonly windowMs = 60_000,
    private readonly maxClients = 100_000,
  ) {}

  miss(scope: string, client: string, now: number): number {
    const id = createHmac('sha256', this.key).update(`${scope}\0${client}`).digest('base64url')
    let window = this.windows.get(id)
    if (!window || window.resetAt <= now) {
      this.windows.delete(id)
      if (this.windows.size >= this.maxClients) this.evict(now)
      window = { count: 0, resetAt: now + this.windowMs }
      this.windows.set(id, window)
    }
    window.count++
    return window.count > this.maxPerWindow ? window.resetAt - now : 0
  }

  /** Drops windows that have ended (called by the sweeper and when full). */
  sweep(now: number): void {
    for (const [id, window] of this.windows) if (window.resetAt <= now) this.windows.delete(id)
  }

  private evict(now: number): void {
    this.sweep(now)
    // Map order is insertion order: the first entries are the oldest windows.
    for (const id of this.windows.keys()) {
      if (this.windows.size < this.maxClients) break
      this.windows.delete(id)
    }
  }
}
