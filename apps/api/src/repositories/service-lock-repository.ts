import { sql } from 'kysely'
import type { Db } from '@tempbox/db'

/**
 * PostgreSQL session-level advisory locks, named by text (hashed to the lock's 64-bit key by the server). Held by the
 * connection that took it until it is unlocked there or that connection ends — so run these on one connection
 * (`db.connection()`), and unlock before giving it back to the pool.
 */
export async function tryAdvisoryLock(conn: Db, name: string): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(hashtextextended(${name}, 0)) AS locked`.execute(conn)
  return rows[0]!.locked
}

export async function advisoryUnlock(conn: Db, name: string): Promise<void> {
  await sql`SELECT pg_advisory_unlock(hashtextextended(${name}, 0))`.execute(conn)
}

/** A round trip on `conn`: throws once the connection (and with it any lock it held) is gone. */
export async function ping(conn: Db): Promise<void> {
  await sql`SELECT 1`.execute(conn)
}
