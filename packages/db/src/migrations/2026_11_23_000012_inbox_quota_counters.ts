import { sql, type Kysely } from 'kysely'

/**
 * What each inbox holds, kept by triggers so mail-ingest checks an inbox's quota by reading one row rather than
 * counting its messages: `message_count` and `bytes_used` (message sizes as received; a message shared with other
 * inboxes counts whole in each, as each could be its only holder).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('inbox').addColumn('message_count', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('inbox').addColumn('bytes_used', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await sql`
    UPDATE inbox SET
      message_count = (SELECT count(*) FROM message WHERE message.inbox_id = inbox.id),
      bytes_used = (SELECT coalesce(sum(size), 0) FROM message WHERE message.inbox_id = inbox.id)
    WHERE true
  `.execute(db)
  await sql`
    CREATE TRIGGER inbox_quota_add AFTER INSERT ON message
    BEGIN
      UPDATE inbox SET message_count = message_count + 1, bytes_used = bytes_used + NEW.size WHERE id = NEW.inbox_id;
    END
  `.execute(db)
  await sql`
    CREATE TRIGGER inbox_quota_remove AFTER DELETE ON message
    BEGIN
      UPDATE inbox SET message_count = message_count - 1, bytes_used = bytes_used - OLD.size WHERE id = OLD.inbox_id;
    END
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS inbox_quota_add`.execute(db)
  await sql`DROP TRIGGER IF EXISTS inbox_quota_remove`.execute(db)
  await db.schema.alterTable('inbox').dropColumn('bytes_used').execute()
  await db.schema.alterTable('inbox').dropColumn('message_count').execute()
}
