import { sql, type Kysely } from 'kysely'
import { DEFAULT_SEARCH_TEXT_MAX_CHARS, searchCopyOf } from '../storage/search-text.js'

/** Contents per read and write: each brings at most 4 × 64 K characters. */
const BATCH = 200

/**
 * Writes the search copy (message_search) of every stored content that has none, folded in JavaScript as ingest folds
 * it, at the default cap. Shared by both engines' migration 2026_11_28_000101; the subject and sender are the first
 * listing row's (every inbox of a content got the same mail).
 */
export async function backfillSearchCopies(db: Kysely<any>): Promise<void> {
  const cap = DEFAULT_SEARCH_TEXT_MAX_CHARS
  let after = 0
  for (;;) {
    const { rows } = await sql<{ id: number | string; subject: string; from_name: string; from_address: string; text: string | null; html_text: string | null }>`
      SELECT c.id, m.subject, m.from_name, m.from_address, substr(c.text, 1, ${cap}) AS text, substr(c.html_text, 1, ${cap}) AS html_text
      FROM message_content c
      JOIN message m ON m.id = (SELECT min(id) FROM message WHERE message_content_id = c.id)
      WHERE c.id > ${after} AND NOT EXISTS (SELECT 1 FROM message_search s WHERE s.message_content_id = c.id)
      ORDER BY c.id LIMIT ${BATCH}`.execute(db)
    if (rows.length === 0) return
    const values = rows.map((r) => {
      const copy = searchCopyOf({ subject: r.subject, fromName: r.from_name, fromAddress: r.from_address, text: r.text, htmlText: r.html_text }, cap)
      return { message_content_id: Number(r.id), subject: copy.subject, from_name: copy.fromName, from_address: copy.fromAddress, body: copy.body }
    })
    await db.insertInto('message_search').values(values).execute()
    after = Number(rows[rows.length - 1]!.id)
  }
}
