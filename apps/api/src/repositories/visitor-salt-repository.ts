import { sql } from 'kysely'
import type { Db, SharedStateTables } from '@tempbox/db'

/** PostgreSQL only: the analytics salt of the day, one for every API node (table visitor_salt, migration 2026_11_24_004001). */

/**
 * The salt of `day`: the one a node stored first, else `candidate`, which then becomes it. Earlier days' salts are
 * deleted in the same statement, so the first page view of a day on any node ends yesterday's. Null when a later
 * day's salt exists already (this node's clock is behind): bringing `day` back would let a day's salt change.
 */
export async function saltOfDay(db: Db, day: string, candidate: Buffer): Promise<Buffer | null> {
  const { rows } = await sql<{ salt: Buffer }>`
    WITH gone AS (DELETE FROM visitor_salt WHERE day < ${day})
    INSERT INTO visitor_salt (day, salt)
    SELECT ${day}, ${candidate} WHERE NOT EXISTS (SELECT 1 FROM visitor_salt WHERE day > ${day})
    ON CONFLICT (day) DO UPDATE SET salt = visitor_salt.salt
    RETURNING salt`.execute(db)
  return rows[0]?.salt ?? null
}

/** Deletes the salts of days before `day` (the sweep's part: a day without page views still ends yesterday's). */
export async function deleteSaltsBefore(db: Db, day: string): Promise<number> {
  const result = await db.withTables<SharedStateTables>().deleteFrom('visitor_salt').where('day', '<', day).executeTakeFirst()
  return Number(result.numDeletedRows)
}
