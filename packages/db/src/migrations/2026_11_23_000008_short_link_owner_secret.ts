import type { Kysely } from 'kysely'

/**
 * `short_link.secret_hash`: SHA-256 of a secret handed only to the browser that made the link. Click counts and the
 * target are shown to whoever presents it, not to anyone who can guess a code (issue 13). Links made before have
 * none, so their counts are shown to nobody.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('short_link').addColumn('secret_hash', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('short_link').dropColumn('secret_hash').execute()
}
