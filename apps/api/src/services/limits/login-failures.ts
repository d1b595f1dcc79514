import { createHmac } from 'node:crypto'

/** Failed sign-ins are counted per account in windows of this length (issue 26). */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000

/**
 * Failed sign-ins counted per account, keyed by `accountKey` (an HMAC of the normalised email, so an unknown account
 * is counted exactly like a real one and the counters name nobody). One process counts in LoginFailureCounter, cluster
 * workers ask the primary's, PostgreSQL nodes count in the database (PostgresLoginFailures).
 */
export interface LoginFailures {
  /** The milliseconds until the account may be signed in to again (0: not throttled); counts nothing. */
  blocked(account: string, now: number): number | Promise<number>
  /** Counts one failed sign-in. */
  fail(account: string, now: number): void | Promise<void>
}

/** The key an account is counted under: an HMAC under a key derived from JWT_SECRET (shared-key.ts's deriveKey). */
export function accountKey(key: Buffer, normalisedEmail: string): string {
  return createHmac('sha256', key).update(normalisedEmail).digest('base64url')
}

interface Window {
  count: number
  resetAt: number
}

/**
 * Fixed windows in memory. At most `maxAccounts` are kept: when full, ended ones go, then the oldest — a flood of
 * made-up accounts can cost an account its count, never this process its memory.
 */
export class LoginFailureCounter implements LoginFailures {
  private readonly windows = new Map<string, Window>()

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs = LOGIN_FAILURE_WINDOW_MS,
    private readonly maxAccounts = 100_000,
  ) {}

  blocked(account: string, now: number): number {
    const window = this.windows.get(account)
    return window && window.resetAt > now && window.count >= this.maxFailures ? window.resetAt - now : 0
  }

  fail(account: string, now: number): void {
    let window = this.windows.get(account)
    if (!window || window.resetAt <= now) {
      this.windows.delete(account)
      if (this.windows.size >= this.maxAccounts) this.evict(now)
      window = { count: 0, resetAt: now + this.windowMs }
      this.windows.set(account, window)
    }
    window.count++
  }

  sweep(now: number): void {
    for (const [id, window] of this.windows) if (window.resetAt <= now) this.windows.delete(id)
  }

  private evict(now: number): void {
    this.sweep(now)
    for (const id of this.windows.keys()) {
      if (this.windows.size < this.maxAccounts) break
      this.windows.delete(id)
    }
  }
}
