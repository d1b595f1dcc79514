import { sql, type Kysely } from 'kysely'

/**
 * Mail bodies and attachments are stored out of line WITHOUT compression (STORAGE EXTERNAL; the default, EXTENDED,
 * compresses with pglz first). At 100 KB a message, pglz was most of the server's CPU per message, on the path every
 * 250 waits for; bodies are stored once per message and dropped with the inbox, so the disk they take is bounded by
 * the size cap (pg_database_size counts them as they are). Applies to rows written from now on.
 */
const COLUMNS = [
  ['message_content', 'raw'], ['message_content', 'text'], ['message_content', 'html'], ['message_content', 'html_text'],
  ['message_content', 'safe_html'], ['attachment', 'content'],
] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, column] of COLUMNS) await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN ${sql.ref(column)} SET STORAGE EXTERNAL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of COLUMNS) await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN ${sql.ref(column)} SET STORAGE EXTENDED`.execute(db)
}
