import { sql } from 'kysely'
import type { Db } from '@tempbox/db'
import { hitWindow } from '../repositories/window-counter-repository.js'
import { LOGIN_FAILURE_WINDOW_MS, type LoginFailures } from './shared-state.js'

const SCOPE = 'login-account'

/** Failed sign-ins counted in PostgreSQL's window_counter, so every API node refuses alike; the sweep deletes ended windows. */
export class PostgresLoginFailures implements LoginFailures {
  constructor(
    private readonly db: Db,
    private readonly maxFailures: number,
    private readonly windowMs = LOGIN_FAILURE_WINDOW_MS,
  ) {}

  async blocked(account: string, now: number): Promise<number> {
    const { rows } = await sql<{ hits: number; reset_at: number }>`
      SELECT hits, reset_at FROM window_counter WHERE scope = ${SCOPE} AND client_key = ${key(account)}`.execute(this.db)
    const row = rows[0]
    if (!row || Number(row.reset_at) <= now || Number(row.hits) < this.maxFailures) return 0
    return Math.min(Number(row.reset_at) - now, this.windowMs)
  }

  async fail(account: string, now: number): Promise<void> {
    await hitWindow(this.db, { scope: SCOPE, clientKey: key(account), windowMs: this.windowMs, max: this.maxFailures, pastMax: 'keep', now })
  }
}

/** The account key is already an HMAC (base64url); window_counter keeps 128 bits of it. */
function key(account: string): Buffer {
  return Buffer.from(account, 'base64url').subarray(0, 16)
}
