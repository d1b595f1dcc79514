import type { Kysely } from 'kysely'

/**
 * `text_head`: the first characters of a long text part, so a message view never reads a multi-MB text whole (SQLite
 * loads a whole value even to take `substr` of it). Filled by the API at a long text's first read; NULL until then,
 * and for texts short enough to be sent whole.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('message_content').addColumn('text_head', 'text').execute()
}
