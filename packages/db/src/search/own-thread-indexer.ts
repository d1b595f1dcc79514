import SQLite from 'better-sqlite3'
import { searchIndexPath } from './index-file.js'
import { DEFAULT_INDEX_STEP, searchIndexerOn, type IndexStep, type IndexStepLimits } from './indexer.js'

/** As createDb's: the store worker's commits hold the write lock only briefly. */
const BUSY_TIMEOUT_MS = 5000

export interface SearchIndexerConnections {
  /** One step of the indexer (see indexSearchStep). */
  step: () => IndexStep
  close: () => void
}

/**
 * The SQLite indexer's own connections, for a thread that does nothing else (mail-ingest's search-index worker): the
 * database, read and its deletion queue trimmed, and the index file beside it. better-sqlite3 and the indexer alone,
 * without Kysely or the rest of the storage, so the thread's isolate stays small. Null when the database has no index
 * file of its own (in memory).
 */
export function openSearchIndexer(databasePath: string, limits: IndexStepLimits = DEFAULT_INDEX_STEP): SearchIndexerConnections | null {
  const indexPath = searchIndexPath(databasePath)
  if (!indexPath) return null
  const main = new SQLite(databasePath, { fileMustExist: true })
  main.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
  // It only drops applied entries of the deletion queue: one lost on power loss is applied again, which changes nothing.
  main.pragma('synchronous = NORMAL')
  const indexer = searchIndexerOn(main, indexPath, limits)
  return {
    step: indexer.step,
    close: () => {
      indexer.close()
      main.close()
    },
  }
}
