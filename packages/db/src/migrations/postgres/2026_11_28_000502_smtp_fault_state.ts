import { sql, type Kysely } from 'kysely'

/**
 * `smtp_fault_state`: the tries each `+greylist` / `+tempfail<N>` sender-recipient(-subject) has made (issue 31), shared
 * by every ingest node so a retry answered by another node is counted. `key` is a hash of what is tracked, `client_key`
 * an HMAC of the client (for its cap), never an IP. UNLOGGED like smtp_guess_client; SQLite: one ingest, in memory.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE UNLOGGED TABLE smtp_fault_state (
      key bytea PRIMARY KEY,
      client_key bytea NOT NULL,
      first_at bigint NOT NULL,
      tries integer NOT NULL,
      expires_at bigint NOT NULL
    )`.execute(db)
  await sql`CREATE INDEX smtp_fault_state_client ON smtp_fault_state (client_key, expires_at)`.execute(db)
  await sql`CREATE INDEX smtp_fault_state_expires_at ON smtp_fault_state (expires_at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE smtp_fault_state`.execute(db)
}
