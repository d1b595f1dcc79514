import { closeSync, existsSync, openSync } from 'node:fs'
import SQLite from 'better-sqlite3'
import { prepared } from '../storage/sqlite/statement-cache.js'

/** As the database file's own (create-db.ts): the copies' words are mail. */
const PRIVATE_FILE_MODE = 0o600

/**
 * SQLite's trigram index lives in a file of its own beside the database (`<DATABASE_PATH>-search`): filling it costs
 * more than storing the message, and in the main file it would run inside the ingest writer's commit, under the one
 * write lock every message waits for. Apart, mail-ingest's indexer fills it on another core after the commit. It is
 * derived data: deleted (services stopped), it is rebuilt from message_search; until an entry is there, search reads
 * that message's copy instead (see index-lookup.ts), so results never depend on how far the indexer has come.
 */
export function searchIndexPath(databasePath: string): string | null {
  return databasePath === '' || databasePath === ':memory:' || databasePath.startsWith('file:') ? null : `${databasePath}-search`
}

/** Contentless (the copy stays in message_search), detail=none: which contents hold a trigram, the smallest form. */
const SCHEMA = `
  CREATE VIRTUAL TABLE IF NOT EXISTS message_search_index USING fts5 (
    subject, from_name, from_address, body,
    tokenize = 'trigram case_sensitive 1', detail = none, content = '', contentless_delete = 1
  );
  CREATE TABLE IF NOT EXISTS search_index_state (
    id integer PRIMARY KEY CHECK (id = 1),
    indexed_through integer NOT NULL
  );
  INSERT OR IGNORE INTO search_index_state (id, indexed_through) VALUES (1, 0);`

/** The index file opened for the indexer, created (private, like the database) with its schema when missing. */
export function openSearchIndexForWriting(path: string): SQLite.Database {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE))
  const index = new SQLite(path)
  index.pragma('journal_mode = WAL')
  // Derived data: a commit lost on power loss is indexed again (its mark is lost with it), never half-applied.
  index.pragma('synchronous = NORMAL')
  index.pragma('busy_timeout = 5000')
  index.exec(SCHEMA)
  return index
}

/** The index file opened for lookups, or null while no indexer has created it yet. */
export function openSearchIndexForReading(path: string): SQLite.Database | null {
  if (!existsSync(path)) return null
  try {
    const index = new SQLite(path, { fileMustExist: true })
    index.pragma('busy_timeout = 5000')
    // The indexer may be between creating the file and its schema: no index yet.
    if (!index.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'search_index_state'`).get()) {
      index.close()
      return null
    }
    return index
  } catch {
    return null
  }
}

/** Every message_search row with a content id up to this is in the index; those above are not yet. */
export function indexedThrough(index: SQLite.Database): number {
  const row = prepared(index, 'SELECT indexed_through FROM search_index_state WHERE id = 1').get() as { indexed_through: number } | undefined
  return row?.indexed_through ?? 0
}
