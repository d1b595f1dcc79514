import { sql, type SqlBool } from 'kysely'
import type { Db } from '../create-db.js'
import { engineOf } from '../postgres-db.js'
import { foldForSearch } from '../storage/search-text.js'
import { indexedThrough } from './index-file.js'
import { searchIndexReaderOf } from './index-readers.js'
import { indexedTerms, likePattern, trigramQuery } from './index-terms.js'
import { COLUMNS, isText, type MessageCondition } from './message-filter.js'

/** A slice of an inbox's messages, newest first. */
export type SliceRow = { id: number; message_content_id: number }

/** The ids of a slice's messages that may match (all others cannot): only their copies need reading. */
export type Narrowing = (rows: readonly SliceRow[]) => Promise<number[]>

/** PostgreSQL's answer to a statement cut by statement_timeout. */
const QUERY_CANCELED = '57014'

/**
 * How the trigram index narrows a search's slices; 'none' when it says no message can match; null when no positive
 * term has 3 or more characters (or, on PostgreSQL, the lookup outlasted `timeoutMs`; on SQLite, no indexer has made
 * the index file yet): slices read every copy.
 */
export async function indexNarrowing(db: Db, inboxId: number, conditions: readonly MessageCondition[], timeoutMs: number): Promise<Narrowing | 'none' | null> {
  const text = conditions.filter(isText)
  const terms = indexedTerms(text)
  if (terms.length === 0) return null
  if (engineOf(db) === 'sqlite') {
    const index = searchIndexReaderOf(db)
    if (!index) return null
    const query = trigramQuery(terms)
    // Copies past the mark are not in the index yet: they stay candidates, and their copies are read.
    const mark = indexedThrough(index)
    // An index ahead of its database (restored from a backup) is started over by the indexer; until then, no index.
    const { rows: [last] } = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'message_content'`.execute(db)
    if (mark > Number(last?.seq ?? 0)) return null
    // A term found in no message at all (a typo, a word of another language) is answered at once: FTS5 stops at the
    // first row holding every trigram, and at once when one of them is in no row.
    const any = index.prepare('SELECT 1 FROM message_search_index WHERE message_search_index MATCH ? LIMIT 1').get(query) !== undefined
    if (!any) {
      const unindexed = await db.selectFrom('message').select('id').where('inbox_id', '=', inboxId).where('message_content_id', '>', mark).limit(1).execute()
      if (unindexed.length === 0) return 'none'
    }
    const lookup = index.prepare('SELECT rowid FROM message_search_index WHERE message_search_index MATCH ? AND rowid BETWEEN ? AND ?')
    return async (rows) => {
      // Index entries only, for the slice's content-id range: bounded by the slice, never the whole database.
      const contents = rows.map((r) => Number(r.message_content_id))
      const low = Math.min(...contents)
      const may = new Set<number>()
      if (any && low <= mark) for (const hit of lookup.all(query, low, Math.min(Math.max(...contents), mark)) as { rowid: number }[]) may.add(Number(hit.rowid))
      return rows.filter((r) => Number(r.message_content_id) > mark || may.has(Number(r.message_content_id))).map((r) => r.id)
    }
  }
  const likes = text.flatMap((c) => {
    if (c.negate || indexedTerms([c]).length === 0) return []
    const pattern = likePattern(foldForSearch(c.value))
    return [sql<SqlBool>`(${sql.join(COLUMNS[c.kind].map((column) => sql<SqlBool>`${sql.ref(column)} LIKE ${pattern}`), sql` OR `)})`]
  })
  try {
    // Once per search: a GIN lookup has no cheap form per slice. The planner rates a seq scan of the small main table
    // below the GIN (the copies' TOAST reads are not in its costs), hence seqscan off, and the lookup kept apart.
    const ids = await db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx)
      await sql`SELECT set_config('statement_timeout', ${String(Math.max(1, Math.round(timeoutMs)))}, true)`.execute(trx)
      const { rows } = await sql<{ id: number | string }>`
        WITH hits AS MATERIALIZED (SELECT message_content_id FROM message_search WHERE ${sql.join(likes, sql` AND `)})
        SELECT m.id FROM message m WHERE m.inbox_id = ${inboxId} AND m.message_content_id IN (SELECT message_content_id FROM hits)`.execute(trx)
      return new Set(rows.map((r) => Number(r.id)))
    })
    if (ids.size === 0) return 'none'
    return async (rows) => rows.filter((r) => ids.has(r.id)).map((r) => r.id)
  } catch (error) {
    if ((error as { code?: string }).code === QUERY_CANCELED) return null
    throw error
  }
}
