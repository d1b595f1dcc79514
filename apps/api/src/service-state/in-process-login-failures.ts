import { LOGIN_FAILURE_WINDOW_MS, type LoginFailures } from './shared-state.js'

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
