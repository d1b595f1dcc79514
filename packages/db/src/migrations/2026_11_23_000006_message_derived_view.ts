import type { Kysely } from 'kysely'

/**
 * What a reader sees that is computed from a message (preview, codes, links, text of an HTML-only mail, sanitized
 * HTML) is stored beside it, derived once at ingest. Rows from before keep `derived_version` NULL and are derived
 * at their first read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const columns: [string, 'integer' | 'text', ((c: any) => any)?][] = [
    ['derived_version', 'integer'],
    ['preview', 'text', (c) => c.notNull().defaultTo('')],
    ['html_text', 'text'],
    ['codes', 'text', (c) => c.notNull().defaultTo('[]')],
    ['links', 'text', (c) => c.notNull().defaultTo('[]')],
    ['safe_html', 'text'],
    ['has_remote_content', 'integer', (c) => c.notNull().defaultTo(0)],
    ['html_withheld', 'text'],
  ]
  for (const [name, type, build] of columns) {
    await db.schema.alterTable('message').addColumn(name, type, build ?? ((c) => c)).execute()
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['derived_version', 'preview', 'html_text', 'codes', 'links', 'safe_html', 'has_remote_content', 'html_withheld']) {
    await db.schema.alterTable('message').dropColumn(name).execute()
  }
}
