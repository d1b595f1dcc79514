import type { Kysely } from 'kysely'

/** See message-source.ts: a plain-text message's body is stored once, as its text, not again inside `raw`. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('message').addColumn('raw_body_is_text', 'integer', (c) => c.notNull().defaultTo(0)).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('message').dropColumn('raw_body_is_text').execute()
}
