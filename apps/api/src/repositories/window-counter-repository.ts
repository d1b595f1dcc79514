import { sql } from 'kysely'
import type { Db, SharedStateTables } from '@tempbox/db'

/** PostgreSQL only: fixed-window counters every API node counts in (table window_counter, migration 2026_11_24_004001). */

/** What happens to a window once its count passes `max` (as @fastify/rate-limit's own stores do). */
export type PastMax = 'keep' | 'restart' | 'double'

export interface WindowHit {
  scope: string
  clientKey: Buffer
  windowMs: number
  max: number
  /** keep: the window ends when it was going to; restart: each hit past max starts it anew; double: it lasts windowMs × 2^(hits − max − 1). */
  pastMax: PastMax
  now: number
}

/** A window that must end within 2^53 ms still fits a JavaScript number. */
const MAX_SAFE_MS = Number.MAX_SAFE_INTEGER

/**
 * Counts one hit and answers the window's count and the milliseconds left of it, in one statement: the row is locked from the conflict to the
 * end of the statement, so hits from any number of nodes are counted one after another and none is lost.
 */
export async function hitWindow(db: Db, hit: WindowHit): Promise<{ hits: number; msLeft: number }> {
  const { scope, clientKey, windowMs, max, pastMax, now } = hit
  const { rows } = await sql<{ hits: number; reset_at: number }>`
    INSERT INTO window_counter AS w (scope, client_key, hits, reset_at)
    VALUES (${scope}, ${clientKey}, 1, ${now}::bigint + ${windowMs}::bigint)
    ON CONFLICT (scope, client_key) DO UPDATE SET
      hits = CASE WHEN w.reset_at <= ${now}::bigint THEN 1 ELSE w.hits + 1 END,
      reset_at = CASE
        WHEN w.reset_at <= ${now}::bigint THEN ${now}::bigint + ${windowMs}::bigint
        WHEN w.hits + 1 <= ${max}::int THEN w.reset_at
        WHEN ${pastMax}::text = 'restart' THEN ${now}::bigint + ${windowMs}::bigint
        WHEN ${pastMax}::text = 'double'
          THEN ${now}::bigint + least(${windowMs}::float8 * power(2, least(w.hits - ${max}::int, 60)), ${MAX_SAFE_MS}::float8)::bigint
        ELSE w.reset_at
      END
    RETURNING hits, reset_at`.execute(db)
  const row = rows[0]!
  // Nodes' clocks differ by a little: one whose clock reads earlier than the node that opened the window would see
  // more than a window left. No window but a doubled one is longer than windowMs.
  const left = Number(row.reset_at) - now
  return { hits: Number(row.hits), msLeft: Math.max(0, pastMax === 'double' ? left : Math.min(left, windowMs)) }
}

/** Deletes windows that have ended; returns how many. */
export async function deleteEndedWindows(db: Db, now: number): Promise<number> {
  const result = await db.withTables<SharedStateTables>().deleteFrom('window_counter').where('reset_at', '<=', now).executeTakeFirst()
  return Number(result.numDeletedRows)
}
