import { sql } from 'kysely'
import type { Db, Engine } from './create-db.js'

/** A client's standing after a guess: blocked until when (0 or past: not blocked), and whether this guess blocked it. */
export interface GuessCount {
  blockedUntil: number
  newlyBlocked: boolean
}

/**
 * The SMTP guess window on PostgreSQL (table `smtp_guess_client`, migration 2026_11_28_000202), shared by every ingest
 * node. Each guess is one upsert that locks its client's row, so parallel sessions on several nodes are counted one at
 * a time and the budget is exact. `clientKey` is an HMAC of the client, never its IP.
 */
export function postgresGuessWindow(db: Db, limits: { limit: number; windowMs: number }) {
  const { limit, windowMs } = limits
  return {
    blockedUntil: async (clientKey: Buffer): Promise<number> => {
      const { rows } = await sql<{ blocked_until: number }>`SELECT blocked_until FROM smtp_guess_client WHERE client_key = ${clientKey}`.execute(db)
      return rows[0]?.blocked_until ?? 0
    },
    /** Counts a guess at `now`: the hits older than the window are dropped; past `limit` the client is blocked for a window. */
    count: async (clientKey: Buffer, now: number): Promise<GuessCount> => {
      const since = now - windowMs
      // While blocked a guess (from a node that had not heard yet) empties the hits, which are not needed until the
      // block ends: so only the guess that blocks the client returns more than `limit` hits, and logs it.
      const { rows } = await sql<{ blocked_until: number; hits: number }>`
        INSERT INTO smtp_guess_client AS c (client_key, hits, blocked_until, last_at)
        VALUES (${clientKey}, ARRAY[${now}::bigint], 0, ${now}::bigint)
        ON CONFLICT (client_key) DO UPDATE SET
          hits = CASE WHEN c.blocked_until > ${now}::bigint THEN '{}'::bigint[]
            ELSE array_append(ARRAY(SELECT h FROM unnest(c.hits) AS h WHERE h > ${since}::bigint), ${now}::bigint) END,
          blocked_until = CASE WHEN c.blocked_until > ${now}::bigint THEN c.blocked_until
            WHEN (SELECT count(*) FROM unnest(c.hits) AS h WHERE h > ${since}::bigint) + 1 > ${limit}::int THEN ${now + windowMs}::bigint
            ELSE c.blocked_until END,
          last_at = ${now}::bigint
        RETURNING c.blocked_until, cardinality(c.hits) AS hits`.execute(db)
      const row = rows[0]!
      return { blockedUntil: row.blocked_until, newlyBlocked: row.hits > limit }
    },
    /** Rows of clients neither blocked nor seen within the window; gives how many went. */
    purge: async (now: number): Promise<number> => {
      const result = await sql`DELETE FROM smtp_guess_client WHERE last_at <= ${now - windowMs}::bigint AND blocked_until <= ${now}::bigint`.execute(db)
      return Number(result.numAffectedRows ?? 0)
    },
  }
}

export type PostgresGuessWindow = ReturnType<typeof postgresGuessWindow>

/** The window every ingest node shares, or null where one ingest holds the database (SQLite): it keeps its own in memory. */
export function sharedGuessWindow(storage: { engine: Engine; db: Db }, limits: { limit: number; windowMs: number }): PostgresGuessWindow | null {
  return storage.engine === 'postgres' ? postgresGuessWindow(storage.db, limits) : null
}
