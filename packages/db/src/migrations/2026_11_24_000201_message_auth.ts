import { sql, type Kysely } from 'kysely'

/**
 * Who really sent a message (SPF, DKIM, DMARC, ARC), checked by mail-ingest after the message is committed. One row per
 * content, as the answer is the same for every inbox it went to; it goes with the content. Ingest writes `checking` in
 * the transaction that stores the message (so a reader never mistakes "not yet" for "never") and replaces it with the
 * verdict; there is no row when the check is turned off or the mail is older than this table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('message_auth')
    .addColumn('message_content_id', 'integer', (c) => c.primaryKey().references('message_content.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('checking', 'pass', 'fail', 'none', 'unknown')`))
    .addColumn('details', 'text')
    .addColumn('authentication_results', 'text')
    .addColumn('checked_at', 'integer')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('message_auth').execute()
}
