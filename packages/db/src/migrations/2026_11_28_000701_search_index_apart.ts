import { sql, type Kysely } from 'kysely'

/**
 * SQLite's trigram index moves to a file of its own, filled by mail-ingest's indexer after each commit (see
 * search/index-file.ts): in this file its triggers ran inside the ingest writer's commit, more than doubling what a
 * message cost under the one write lock. What stays here is the queue of deleted contents the indexer takes out of it.
 * The new file starts empty and is filled in steps; meanwhile search reads the copies it does not cover yet.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS message_search_indexed`.execute(db)
  await sql`DROP TRIGGER IF EXISTS message_search_unindexed`.execute(db)
  await sql`DROP TABLE IF EXISTS message_search_index`.execute(db)
  await sql`CREATE TABLE message_search_unindexed (message_content_id integer NOT NULL)`.execute(db)
  await sql`
    CREATE TRIGGER message_search_deleted AFTER DELETE ON message_search BEGIN
      INSERT INTO message_search_unindexed (message_content_id) VALUES (old.message_content_id);
    END`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER message_search_deleted`.execute(db)
  await sql`DROP TABLE message_search_unindexed`.execute(db)
}
