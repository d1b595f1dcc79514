import { sql, type Kysely } from 'kysely'

/**
 * message_search_index: an FTS5 trigram index over each search copy, so a term of 3 or more characters is looked up
 * instead of read through every copy (issue 26). Contentless (the copy stays in message_search) and detail=none: it
 * lists which contents hold a trigram, the smallest form; search checks the real substring after. case_sensitive 1:
 * the copy is folded already, and SQLite's own folding differs from ours. Triggers keep it in step with every writer.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE VIRTUAL TABLE message_search_index USING fts5 (
      subject, from_name, from_address, body,
      tokenize = 'trigram case_sensitive 1', detail = none, content = '', contentless_delete = 1
    )`.execute(db)
  await sql`
    INSERT INTO message_search_index (rowid, subject, from_name, from_address, body)
    SELECT message_content_id, subject, from_name, from_address, body FROM message_search`.execute(db)
  await sql`
    CREATE TRIGGER message_search_indexed AFTER INSERT ON message_search BEGIN
      INSERT INTO message_search_index (rowid, subject, from_name, from_address, body)
      VALUES (new.message_content_id, new.subject, new.from_name, new.from_address, new.body);
    END`.execute(db)
  await sql`
    CREATE TRIGGER message_search_unindexed AFTER DELETE ON message_search BEGIN
      DELETE FROM message_search_index WHERE rowid = old.message_content_id;
    END`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER message_search_unindexed`.execute(db)
  await sql`DROP TRIGGER message_search_indexed`.execute(db)
  await sql`DROP TABLE message_search_index`.execute(db)
}
