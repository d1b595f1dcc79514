import { sql, type Kysely } from 'kysely'

/**
 * Read state is per inbox row (`message`), not per content: a message stored once for several of our addresses is read
 * or unread in each inbox apart. `read_at` is NULL until the reader opens it. Mail stored before this is unread: no
 * one told us otherwise, and it expires within a day anyway.
 *
 * The partial index holds unread rows only, so an inbox's unread count (every listing carries it) is a count over
 * index entries — no table rows read — and `is:unread` a range scan of it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('message').addColumn('read_at', 'integer').execute()
  await sql`CREATE INDEX message_unread ON message (inbox_id, id) WHERE read_at IS NULL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('message_unread').execute()
  await db.schema.alterTable('message').dropColumn('read_at').execute()
}
