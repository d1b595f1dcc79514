import { sql, type Kysely } from 'kysely'

/**
 * `auth_session`: one row per signed-in browser (issue 26). The short-lived access token names its row (`sid`), so
 * signing out ends it at once; the refresh cookie carries the id and a secret whose SHA-256 is `secret_hash`, replaced
 * at each renewal. `token_version` is the account's when the row was made: raising the account's revokes the row.
 * The same SQL on both engines (bigint is an INTEGER column on SQLite).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE auth_session (
      id text PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
      secret_hash text NOT NULL,
      token_version integer NOT NULL,
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL
    )`.execute(db)
  await sql`CREATE INDEX auth_session_user_id ON auth_session (user_id)`.execute(db)
  await sql`CREATE INDEX auth_session_expires_at ON auth_session (expires_at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE auth_session`.execute(db)
}
