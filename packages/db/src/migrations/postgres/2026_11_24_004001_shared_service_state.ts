import { sql, type Kysely } from 'kysely'

/**
 * What must be one for the whole service when several API nodes share PostgreSQL: the per-client address limits, the
 * fixed-window counters (@fastify/rate-limit's and the guess limiter's) and the analytics salt of the day. On SQLite
 * one host serves, and these live in memory (the API process's own, or its cluster primary's): these tables have no
 * SQLite counterpart (the engine-parity test lists them).
 *
 * UNLOGGED: never written to the WAL, so never in a replica, a base backup or a WAL archive, and emptied by a crash
 * restart — right for short-lived limits (losing them forgives a client for a while) and for a salt that must not
 * outlive its day. Clients are keyed by an HMAC of their IP (or IPv6 /64) under a key from the API's configuration,
 * never a raw IP. Times are epoch milliseconds, like every other table.
 */
const STATEMENTS = [
  // One row per client with a live reservation: the reserving transaction locks it (upsert), so one client's
  // reservations are counted one at a time across every node. `until`: when none of its slots limits anything any more.
  `CREATE UNLOGGED TABLE address_limit_client (
    client_key bytea PRIMARY KEY,
    until bigint NOT NULL
  )`,
  `CREATE INDEX address_limit_client_until ON address_limit_client (until)`,
  // One row per address made: counts for the hourly limit while created_at is within the hour, and for the active
  // limit until expires_at (set to 0 when its holder releases it early).
  `CREATE UNLOGGED TABLE address_limit_slot (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    client_key bytea NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL
  )`,
  `CREATE INDEX address_limit_slot_client_key ON address_limit_slot (client_key)`,
  // A fixed window per scope (a route, or a guess limiter) and client: one upsert counts a hit and says the count.
  `CREATE UNLOGGED TABLE window_counter (
    scope text NOT NULL,
    client_key bytea NOT NULL,
    hits integer NOT NULL,
    reset_at bigint NOT NULL,
    PRIMARY KEY (scope, client_key)
  )`,
  `CREATE INDEX window_counter_reset_at ON window_counter (reset_at)`,
  // The salt of the current UTC day only: the day's first page view on any node deletes the rows of earlier days,
  // and so does the sweep.
  `CREATE UNLOGGED TABLE visitor_salt (
    day text PRIMARY KEY,
    salt bytea NOT NULL
  )`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['visitor_salt', 'window_counter', 'address_limit_slot', 'address_limit_client']) {
    await sql.raw(`DROP TABLE ${table}`).execute(db)
  }
}
