import type SQLite from 'better-sqlite3'
import type { SqliteDatabase } from 'kysely'

/** Statements kept prepared per connection; the least recently used one is dropped past this. */
const MAX_STATEMENTS = 256

/** Each connection's prepared statements by SQL text, gone with their connection. */
const byConnection = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>()

/**
 * `sqlite.prepare(text)`, each distinct text once per connection: for the short queries run all the time (the change
 * feed's "ids above N", the webhook queue's scan, the search indexer's steps) SQLite's parse and plan cost as much CPU
 * as running them. A statement still being iterated (a streamed query) is busy, so that text gets a fresh one
 * meanwhile. SQLite itself re-plans a cached statement when the schema changes under it.
 */
export function prepared(sqlite: SQLite.Database, text: string): SQLite.Statement {
  let cache = byConnection.get(sqlite)
  if (!cache) byConnection.set(sqlite, (cache = new Map()))
  const cached = cache.get(text)
  if (cached && !cached.busy) {
    // Map order is insertion order: re-inserting keeps the most recently used last.
    cache.delete(text)
    cache.set(text, cached)
    return cached
  }
  const statement = sqlite.prepare(text)
  if (!cached) {
    if (cache.size >= MAX_STATEMENTS) cache.delete(cache.keys().next().value!)
    cache.set(text, statement)
  }
  return statement
}

/** The handle Kysely's SQLite dialect runs queries through (Kysely itself prepares the statement on every query). */
export function cachingStatements(sqlite: SQLite.Database): SqliteDatabase {
  return {
    close: () => sqlite.close(),
    prepare: (text) => prepared(sqlite, text),
  }
}
