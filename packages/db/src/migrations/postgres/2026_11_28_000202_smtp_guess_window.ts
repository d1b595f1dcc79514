import { sql, type Kysely } from 'kysely'

/**
 * `smtp_guess_client`: the never-issued recipients each SMTP client named in the last minute, shared by every ingest
 * node (issue 26). One row per client, keyed by an HMAC of its IP (or IPv6 /64), never the IP; `hits` holds the times
 * of the guesses within the window (at most the limit plus one), `blocked_until` when its 450s end. UNLOGGED like the
 * API's shared limits (2026_11_24_004001): a crash forgets it. SQLite has no counterpart: one ingest keeps it in memory.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE UNLOGGED TABLE smtp_guess_client (
      client_key bytea PRIMARY KEY,
      hits bigint[] NOT NULL,
      blocked_until bigint NOT NULL,
      last_at bigint NOT NULL
    )`.execute(db)
  await sql`CREATE INDEX smtp_guess_client_last_at ON smtp_guess_client (last_at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE smtp_guess_client`.execute(db)
}
