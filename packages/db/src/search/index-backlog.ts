import type SQLite from 'better-sqlite3'
import { indexedThrough } from './index-file.js'
import { lastContentId } from './indexer.js'

/** How far SQLite's search index file is behind the database: what the indexer has yet to take in or out. */
export interface SearchIndexBacklog {
  /** Contents stored past the index's mark (those deleted meanwhile included): search reads their copies. */
  contents: number
  /** Deleted contents whose index entries are still queued for removal. */
  deletions: number
}

/**
 * Read from the two counters alone, not by counting rows, so a scrape costs the same however far behind the indexer
 * is (a rebuild of a large store, an indexer that keeps failing). `index` null: no index file yet, nothing indexed.
 */
export function searchIndexBacklog(main: SQLite.Database, index: SQLite.Database | null): SearchIndexBacklog {
  const last = lastContentId(main)
  const mark = index ? indexedThrough(index) : 0
  const queue = main.prepare('SELECT min(rowid) AS first, max(rowid) AS last FROM message_search_unindexed').get() as
    { first: number | null; last: number | null }
  return {
    // A mark past the last id is a restored database: the next step starts the index over from nothing.
    contents: mark > last ? last : last - mark,
    // Applied in rowid order and dropped up to the last applied, so the queue's rowids run without gaps.
    deletions: queue.first === null || queue.last === null ? 0 : queue.last - queue.first + 1,
  }
}
