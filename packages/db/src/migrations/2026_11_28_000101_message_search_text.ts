import { sql, type Kysely } from 'kysely'
import { backfillSearchCopies } from './search-copy-backfill.js'

/**
 * message_search: each content's subject, sender and text folded for search at ingest (storage/search-text.ts), so a
 * search is SQLite's own instr() over at most SEARCH_TEXT_MAX_CHARS per field, where it lower-cased every row's whole
 * text in a JavaScript function once per term (issue 26). Rows stored before are given theirs here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE message_search (
      message_content_id integer PRIMARY KEY REFERENCES message_content (id) ON DELETE CASCADE,
      subject text NOT NULL,
      from_name text NOT NULL,
      from_address text NOT NULL,
      body text NOT NULL
    )`.execute(db)
  await backfillSearchCopies(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE message_search`.execute(db)
}
