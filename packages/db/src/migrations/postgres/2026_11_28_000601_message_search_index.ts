import { sql, type Kysely } from 'kysely'

/**
 * pg_trgm GIN index over each search copy (see the SQLite migration of the same name), so a LIKE for a term of 3 or
 * more characters reads only copies holding its trigrams. Where the extension is not installed, search keeps working
 * by reading the copies (slower); the migration says so rather than failing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM pg_available_extensions WHERE name = 'pg_trgm'`.execute(db)
  if (rows.length === 0) {
    console.warn('PostgreSQL has no pg_trgm extension (package postgresql-contrib): search will read every copy, without an index.')
    return
  }
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db)
  await sql`
    CREATE INDEX message_search_trgm ON message_search
    USING gin (subject gin_trgm_ops, from_name gin_trgm_ops, from_address gin_trgm_ops, body gin_trgm_ops)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS message_search_trgm`.execute(db)
}
