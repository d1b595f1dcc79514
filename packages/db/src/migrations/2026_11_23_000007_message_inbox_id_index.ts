import type { Kysely } from 'kysely'

/**
 * The inbox listing pages newest first by id (`before=<id>` cursors stay valid when the message they name is deleted),
 * so its index is (inbox_id, id): a page is a range scan of `limit` entries and the total a count over one inbox's
 * entries, however large the inbox. Nothing reads by received_at any more.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('message_inbox_id').on('message').columns(['inbox_id', 'id']).execute()
  await db.schema.dropIndex('message_inbox_received').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('message_inbox_received').on('message').columns(['inbox_id', 'received_at desc', 'id desc']).execute()
  await db.schema.dropIndex('message_inbox_id').execute()
}
