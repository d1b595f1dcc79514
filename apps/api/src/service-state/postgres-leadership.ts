import type { Db } from '@tempbox/db'
import { advisoryUnlock, ping, tryAdvisoryLock } from '../repositories/service-lock-repository.js'
import { Leadership } from './leadership.js'

/** The advisory lock whose holder runs the one-per-service jobs. */
export const SERVICE_JOBS_LOCK = 'tempbox:service-jobs'

export interface LeadershipTiming {
  /** How often a node that does not lead tries for the lock. */
  retryMs: number
  /** How often the leader checks that its lock's connection is alive (a dead one has lost the lock). */
  checkMs: number
}

/**
 * Leadership on PostgreSQL: the node holding a session-level advisory lock runs the jobs. The lock lives on one
 * connection of the pool, held for as long as this node leads; if that connection dies (the node is gone, or cut off)
 * the server releases the lock and another node, trying every `retryMs`, takes over. A leader cut off from the server
 * notices at its next check (`checkMs`) and stops its jobs; until then two may briefly run, which is safe for ours:
 * the sweep's deletes repeat harmlessly, and webhook deliveries are at least once already.
 */
export class PostgresLeadership extends Leadership {
  private retryTimer: NodeJS.Timeout | null = null
  private holding: Promise<void> | null = null
  private closed = false
  private wakeHolder: (() => void) | null = null

  constructor(
    private readonly db: Db,
    private readonly timing: LeadershipTiming,
    private readonly reportError: (message: string, err: unknown) => void,
    private readonly lockName = SERVICE_JOBS_LOCK,
  ) {
    super(reportError)
  }

  /** Resolves at once: the lock is tried in the background, and the jobs start whenever this node gets it. */
  async start(): Promise<void> {
    this.attempt()
    this.retryTimer = setInterval(() => this.attempt(), this.timing.retryMs)
    this.retryTimer.unref()
  }

  async stop(): Promise<void> {
    this.closed = true
    if (this.retryTimer) clearInterval(this.retryTimer)
    this.wakeHolder?.()
    await this.holding
    await this.abdicate()
  }

  private attempt(): void {
    if (this.holding || this.closed) return
    this.holding = this.db
      .connection()
      .execute((conn) => this.holdOn(conn))
      .catch((err: unknown) => this.reportError('[jobs] the service lock was lost or could not be asked for', err))
      .finally(() => {
        this.holding = null
      })
  }

  /** Runs while this node holds the lock on `conn`: leads, checks the connection, and unlocks before giving it back. */
  private async holdOn(conn: Db): Promise<void> {
    if (!(await tryAdvisoryLock(conn, this.lockName))) return
    try {
      await this.lead()
      while (!this.closed) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.timing.checkMs)
          this.wakeHolder = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        this.wakeHolder = null
        if (!this.closed) await ping(conn)
      }
    } finally {
      await this.abdicate()
      // The connection goes back to the pool: it must not carry the lock there. A dead one took the lock with it.
      await advisoryUnlock(conn, this.lockName).catch(() => undefined)
    }
  }
}
