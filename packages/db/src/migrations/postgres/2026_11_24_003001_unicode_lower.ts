import { sql, type Kysely } from 'kysely'

/**
 * UNICODE_LOWER (storage/text-functions.ts) on PostgreSQL: queries call `tempbox_lower(x)` on both engines. SQLite's
 * connections register it in JavaScript because SQLite's lower() folds ASCII only; PostgreSQL's lower() already folds
 * Unicode (the database is UTF-8), so here it is lower() under our name. IMMUTABLE and inlinable SQL: an index on
 * lower() serves it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE OR REPLACE FUNCTION tempbox_lower(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT lower(value)'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP FUNCTION tempbox_lower(text)`.execute(db)
}
