import { sql, type Kysely } from 'kysely'

/**
 * An inbox's unread count kept on its row, by the same triggers as its quota counters, in place of the partial index
 * `message_unread`. Every stored message wrote an entry into that index, a leaf apart for each inbox: one more 16 KB
 * page in the commit (the inbox row is written by the quota trigger already). Without it, ingest made 1.07× the
 * messages a second at 2 KB (7 of 7 pairs), and an inbox's unread count is one row read instead of a count of entries.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('inbox').addColumn('unread_count', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await sql`
    UPDATE inbox SET unread_count = (SELECT count(*) FROM message WHERE message.inbox_id = inbox.id AND message.read_at IS NULL)
    WHERE true
  `.execute(db)
  await quotaTriggers(db, true)
  await sql`
    CREATE TRIGGER inbox_unread_count AFTER UPDATE OF read_at ON message
    WHEN (OLD.read_at IS NULL) <> (NEW.read_at IS NULL)
    BEGIN
      UPDATE inbox SET unread_count = unread_count + (NEW.read_at IS NULL) - (OLD.read_at IS NULL) WHERE id = NEW.inbox_id;
    END
  `.execute(db)
  await db.schema.dropIndex('message_unread').execute()
}

/** The partial index of 2026_11_24_000101 and the quota triggers of 2026_11_23_000012. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX message_unread ON message (inbox_id, id) WHERE read_at IS NULL`.execute(db)
  await sql`DROP TRIGGER inbox_unread_count`.execute(db)
  await quotaTriggers(db, false)
  await db.schema.alterTable('inbox').dropColumn('unread_count').execute()
}

/** The quota triggers (2026_11_23_000012) made again, counting unread rows too when `unread`. */
async function quotaTriggers(db: Kysely<any>, unread: boolean): Promise<void> {
  const [added, removed] = unread ? [', unread_count = unread_count + (NEW.read_at IS NULL)', ', unread_count = unread_count - (OLD.read_at IS NULL)'] : ['', '']
  await sql`DROP TRIGGER inbox_quota_add`.execute(db)
  await sql.raw(`
    CREATE TRIGGER inbox_quota_add AFTER INSERT ON message
    BEGIN
      UPDATE inbox SET message_count = message_count + 1, bytes_used = bytes_used + NEW.size${added} WHERE id = NEW.inbox_id;
    END
  `).execute(db)
  await sql`DROP TRIGGER inbox_quota_remove`.execute(db)
  await sql.raw(`
    CREATE TRIGGER inbox_quota_remove AFTER DELETE ON message
    BEGIN
      UPDATE inbox SET message_count = message_count - 1, bytes_used = bytes_used - OLD.size${removed} WHERE id = OLD.inbox_id;
    END
  `).execute(db)
}
