import { sql } from 'kysely'
import type { Db, Engine } from './create-db.js'

/** What a tracked fault (greylist, tempfail) knows of its sender-recipient(-subject): its first try and how many tries. */
export interface FaultTries {
  firstAt: number
  tries: number
}

/**
 * The fault-tag state on PostgreSQL (table `smtp_fault_state`, migration 2026_11_28_000502), shared by every ingest
 * node. A try is one upsert; an entry lives `ttlMs` past its last try. A client keeps at most `maxPerClient` entries:
 * its least recently tried go first. `key` and `clientKey` are hashes, never an address or an IP.
 */
export function postgresFaultState(db: Db, limits: { ttlMs: number; maxPerClient: number }) {
  const { ttlMs, maxPerClient } = limits
  return {
    /** Counts a try at `now`: an expired entry starts over. */
    tryAt: async (key: Buffer, clientKey: Buffer, now: number): Promise<FaultTries> => {
      const { rows } = await sql<{ first_at: number; tries: number; inserted: boolean }>`
        INSERT INTO smtp_fault_state AS s (key, client_key, first_at, tries, expires_at)
        VALUES (${key}, ${clientKey}, ${now}::bigint, 1, ${now + ttlMs}::bigint)
        ON CONFLICT (key) DO UPDATE SET
          first_at = CASE WHEN s.expires_at <= ${now}::bigint THEN ${now}::bigint ELSE s.first_at END,
          tries = CASE WHEN s.expires_at <= ${now}::bigint THEN 1 ELSE s.tries + 1 END,
          expires_at = ${now + ttlMs}::bigint
        RETURNING s.first_at, s.tries, (xmax = 0) AS inserted`.execute(db)
      const row = rows[0]!
      if (row.inserted) {
        await sql`
          DELETE FROM smtp_fault_state WHERE key IN (
            SELECT key FROM smtp_fault_state WHERE client_key = ${clientKey} ORDER BY expires_at DESC OFFSET ${maxPerClient}::int
          )`.execute(db)
      }
      return { firstAt: Number(row.first_at), tries: Number(row.tries) }
    },
    /** Entries past their time; gives how many went. */
    purge: async (now: number): Promise<number> => {
      const result = await sql`DELETE FROM smtp_fault_state WHERE expires_at <= ${now}::bigint`.execute(db)
      return Number(result.numAffectedRows ?? 0)
    },
  }
}

export type PostgresFaultState = ReturnType<typeof postgresFaultState>

/** The state every ingest node shares, or null where one ingest holds the database (SQLite): it keeps its own in memory. */
export function sharedFaultState(storage: { engine: Engine; db: Db }, limits: { ttlMs: number; maxPerClient: number }): PostgresFaultState | null {
  return storage.engine === 'postgres' ? postgresFaultState(storage.db, limits) : null
}
