import type SQLite from 'better-sqlite3'
import { openSearchIndexForReading, searchIndexPath } from './index-file.js'

/** Per open SQLite database (its Kysely handle): where its index file is, and the connection search reads it with. */
const readers = new WeakMap<object, { path: string; reader: SQLite.Database | null }>()

/** Called by createDb: lookups through `db` may use the index file beside `databasePath` (none for ':memory:'). */
export function registerSearchIndex(db: object, databasePath: string): void {
  const path = searchIndexPath(databasePath)
  if (path) readers.set(db, { path, reader: null })
}

/** The index file's connection for `db`, opened on first use; null while there is no index file (search reads copies). */
export function searchIndexReaderOf(db: object): SQLite.Database | null {
  const entry = readers.get(db)
  if (!entry) return null
  entry.reader ??= openSearchIndexForReading(entry.path)
  return entry.reader
}

/** Called when `db` is closed. */
export function closeSearchIndexReaderOf(db: object): void {
  const entry = readers.get(db)
  entry?.reader?.close()
  readers.delete(db)
}
