import type SQLite from 'better-sqlite3'
import { prepared } from '../storage/sqlite/statement-cache.js'
import { indexedThrough, openSearchIndexForWriting } from './index-file.js'

export interface IndexStepLimits {
  /** Copies indexed per step at most. */
  rows: number
  /** Characters of copies read per step at most (a copy is up to 4 × SEARCH_TEXT_MAX_CHARS): bounds the step's memory. */
  chars: number
  /** Deleted contents taken out of the index per step at most. */
  deletions: number
}

/** FTS5 pays per transaction as well as per row: a copy costs less CPU in a larger step. */
export const DEFAULT_INDEX_STEP: IndexStepLimits = { rows: 512, chars: 4_000_000, deletions: 2_000 }

/** What one step did: rows handled (copies indexed and deletions applied), and whether it stopped at a limit. */
export interface IndexStep {
  handled: number
  /** A limit was reached: more may be waiting, so the next step should not wait. */
  more: boolean
}

type CopyRow = { id: number; subject: string; from_name: string; from_address: string; body: string }

/**
 * One step of SQLite's search indexer: the next copies past the index's mark go into the index file, and the contents
 * deleted since (queued by a trigger in message_search_unindexed) come out, in one transaction of the index file that
 * moves the mark with them. The main file is only read, but for dropping the queue entries applied. Content ids only
 * grow (AUTOINCREMENT) and commit in order (one writer at a time), so everything up to the mark is indexed. A copy
 * deleted between the read and the write is in the queue by the next step.
 */
export function indexSearchStep(main: SQLite.Database, index: SQLite.Database, limits: IndexStepLimits = DEFAULT_INDEX_STEP): IndexStep {
  let mark = indexedThrough(index)
  if (mark > lastContentId(main)) {
    // The database is older than its index (restored from a backup): its next contents would reuse ids at or below
    // the mark and never be indexed. Start the index over.
    index.transaction(() => {
      prepared(index, `INSERT INTO message_search_index (message_search_index) VALUES ('delete-all')`).run()
      prepared(index, 'UPDATE search_index_state SET indexed_through = 0 WHERE id = 1').run()
    })()
    // Deletions queued so far were of the old index's entries; the new one is built from the copies there are now.
    prepared(main, 'DELETE FROM message_search_unindexed').run()
    mark = 0
  }
  const copies: CopyRow[] = []
  let chars = 0
  let more = false
  for (const row of prepared(main, `SELECT message_content_id AS id, subject, from_name, from_address, body FROM message_search
      WHERE message_content_id > ? ORDER BY message_content_id LIMIT ?`)
    .iterate(mark, limits.rows) as IterableIterator<CopyRow>) {
    copies.push(row)
    chars += row.subject.length + row.from_name.length + row.from_address.length + row.body.length
    if (chars >= limits.chars) {
      more = true
      break
    }
  }
  if (copies.length === limits.rows) more = true
  // Read after the copies: a copy deleted once they were read is in this list, and comes out right after going in.
  const deleted = prepared(main, 'SELECT rowid AS seq, message_content_id AS id FROM message_search_unindexed ORDER BY rowid LIMIT ?')
    .all(limits.deletions) as { seq: number; id: number }[]
  if (deleted.length === limits.deletions) more = true
  if (copies.length === 0 && deleted.length === 0) return { handled: 0, more: false }
  const insert = prepared(index, 'INSERT INTO message_search_index (rowid, subject, from_name, from_address, body) VALUES (?, ?, ?, ?, ?)')
  const remove = prepared(index, 'DELETE FROM message_search_index WHERE rowid = ?')
  const setMark = prepared(index, 'UPDATE search_index_state SET indexed_through = ? WHERE id = 1')
  index.transaction(() => {
    for (const c of copies) insert.run(c.id, c.subject, c.from_name, c.from_address, c.body)
    // A content never indexed (deleted before its turn) is no entry: deleting it changes nothing.
    for (const d of deleted) remove.run(d.id)
    if (copies.length > 0) setMark.run(copies[copies.length - 1]!.id)
  })()
  // After the index's commit: should this fail, the entries are applied again next step, which changes nothing.
  if (deleted.length > 0) prepared(main, 'DELETE FROM message_search_unindexed WHERE rowid <= ?').run(deleted[deleted.length - 1]!.seq)
  return { handled: copies.length + deleted.length, more }
}

/** The highest content id the database ever gave (AUTOINCREMENT's own record), 0 before the first. */
export function lastContentId(main: SQLite.Database): number {
  const row = prepared(main, `SELECT seq FROM sqlite_sequence WHERE name = 'message_content'`).get() as { seq: number } | undefined
  return row?.seq ?? 0
}

/**
 * The indexer over `main`, writing the index file at `indexPath` (opened, and created when missing, at the first step).
 * `close` closes that file; `main` stays its owner's.
 */
export function searchIndexerOn(main: SQLite.Database, indexPath: string, limits: IndexStepLimits = DEFAULT_INDEX_STEP): { step: () => IndexStep; close: () => void } {
  let index: SQLite.Database | null = null
  return {
    step: () => indexSearchStep(main, (index ??= openSearchIndexForWriting(indexPath)), limits),
    close: () => index?.close(),
  }
}
