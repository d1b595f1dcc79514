import { sql, type Kysely } from 'kysely'
import type { DerivedMessage } from '@tempbox/mail-derive'

/** Contents per read: each brings its whole text and HTML, so few at a time. */
const BATCH = 20

/**
 * Derives the stored view (@tempbox/mail-derive) of every content stored without the current one, in batches, as
 * ingest derives it; the subject is the first listing row's. A later DERIVED_VERSION needs a migration that calls this
 * again: the API reads only stored views.
 */
export async function deriveStoredViews(db: Kysely<any>): Promise<void> {
  // Loaded only with something to derive, not with the migration list: a process that migrates (each api start, a new
  // database included) would otherwise hold sanitize-html, htmlparser2 and postcss (~6.5 MB of heap) for good.
  if ((await db.selectFrom('message_content').select('id').limit(1).execute()).length === 0) return
  const { DERIVED_VERSION, deriveMessage } = await import('@tempbox/mail-derive')
  /** What a message whose derivation threw is shown with: its envelope, as the listing showed it before. */
  const nothingDerived: Omit<DerivedMessage, 'failures'> = {
    version: DERIVED_VERSION, preview: '', htmlText: null, codes: [], links: [], safeHtml: null, hasRemoteContent: false, htmlWithheld: null,
  }
  const derive = (input: Parameters<typeof deriveMessage>[0], id: number): Omit<DerivedMessage, 'failures'> => {
    try {
      const d = deriveMessage(input)
      if (d.failures.length > 0) console.error(`[migrate] deriving stored message content ${id} failed in part: ${d.failures.join('; ')}`)
      return d
    } catch (error) {
      console.error(`[migrate] deriving stored message content ${id} failed; it is shown without its view`, error)
      return nothingDerived
    }
  }
  let after = 0
  for (;;) {
    const { rows } = await sql<{ id: number | string; subject: string | null; text: string | null; html: string | null }>`
      SELECT c.id, (SELECT m.subject FROM message m WHERE m.message_content_id = c.id ORDER BY m.id LIMIT 1) AS subject, c.text, c.html
      FROM message_content c
      WHERE c.id > ${after} AND (c.derived_version IS NULL OR c.derived_version < ${DERIVED_VERSION})
      ORDER BY c.id LIMIT ${BATCH}`.execute(db)
    if (rows.length === 0) return
    const contentIds = await contentIdsOf(db, rows.map((r) => Number(r.id)))
    for (const row of rows) {
      const id = Number(row.id)
      const d = derive({ subject: row.subject ?? '', text: row.text, html: row.html, contentIds: contentIds.get(id) ?? [] }, id)
      await db
        .updateTable('message_content')
        .set({
          derived_version: d.version, preview: d.preview, html_text: d.htmlText, codes: JSON.stringify(d.codes), links: JSON.stringify(d.links),
          safe_html: d.safeHtml, has_remote_content: d.hasRemoteContent ? 1 : 0, html_withheld: d.htmlWithheld,
        })
        .where('id', '=', id)
        .execute()
    }
    after = Number(rows[rows.length - 1]!.id)
  }
}

/** Content-IDs of each content's attachments by position: the derivation maps `cid:` references with them. */
async function contentIdsOf(db: Kysely<any>, ids: number[]): Promise<Map<number, (string | null)[]>> {
  const rows = await db
    .selectFrom('attachment')
    .select(['message_content_id', 'position', 'content_id'])
    .where('message_content_id', 'in', ids)
    .orderBy('position')
    .execute()
  const byContent = new Map<number, (string | null)[]>()
  for (const r of rows) {
    const list = byContent.get(Number(r.message_content_id)) ?? []
    list[r.position] = r.content_id
    byContent.set(Number(r.message_content_id), list)
  }
  for (const [id, list] of byContent) byContent.set(id, Array.from(list, (cid) => cid ?? null))
  return byContent
}
