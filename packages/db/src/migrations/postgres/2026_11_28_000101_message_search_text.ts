import { sql, type Kysely } from 'kysely'
import { backfillSearchCopies } from '../search-copy-backfill.js'

/**
 * message_search on PostgreSQL (see the SQLite migration of the same name): folded in JavaScript, not by lower(),
 * whose folding depends on the database's locale (ASCII only under C), so both engines match alike.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE message_search (
      message_content_id bigint PRIMARY KEY REFERENCES message_content (id) ON DELETE CASCADE,
      subject text NOT NULL,
      from_name text NOT NULL,
      from_address text NOT NULL,
      body text NOT NULL
    )`.execute(db)
  // Out of line but never compressed: each term's strpos() fetches the value again, and decompressing 64 K per term
  // and message made a search many times slower.
  for (const column of ['subject', 'from_name', 'from_address', 'body']) {
    await sql`ALTER TABLE message_search ALTER COLUMN ${sql.ref(column)} SET STORAGE EXTERNAL`.execute(db)
  }
  await backfillSearchCopies(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE message_search`.execute(db)
}
