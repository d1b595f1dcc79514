import { sql, type Kysely } from 'kysely'

/**
 * The head of a long text part gets a table of its own. As a column added to `message_content` it sat after `text` and
 * `raw` in each record, and SQLite reaches a value only by walking the overflow pages of every large value before it:
 * a view of a 9 MB text mail read ~19 MB of pages to find its 256 KB head (8.7 of the read's 12.5 ms). Heads filled so
 * far move over; the old column is emptied rather than dropped (DROP COLUMN would rewrite every stored message).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE message_text_head (
      message_content_id integer PRIMARY KEY REFERENCES message_content (id) ON DELETE CASCADE,
      text text NOT NULL
    )`.execute(db)
  await sql`INSERT INTO message_text_head (message_content_id, text) SELECT id, text_head FROM message_content WHERE text_head IS NOT NULL`.execute(db)
  await sql`UPDATE message_content SET text_head = NULL WHERE text_head IS NOT NULL`.execute(db)
}
