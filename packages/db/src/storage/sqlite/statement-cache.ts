import type SQLite from 'better-sqlite3'
import type { SqliteDatabase } from 'kysely'

/** Statements kept prepared per connection; the least recently used one is dropped past this. */
const MAX_STATEMENTS = 256

/**
 * The handle Kysely's SQLite dialect runs queries through, preparing each distinct SQL text once. Kysely prepares the
 * statement again on every query, and for the short queries the api repeats all the time (the change feed's "ids
 * above N", the webhook queue's scan) SQLite's parse and plan cost as much CPU as running them. A statement still being
 * iterated (a streamed query) is busy, so that text gets a fresh one meanwhile. SQLite itself re-plans a cached
 * statement when the schema changes under it.
 */
export function cachingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>()
  return {
    close: () => sqlite.close(),
    prepare(text) {
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
    },
  }
}

/** Statements of `prepared`, per connection: a fixed set of texts each, gone with their connection. */
const preparedByConnection = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>()

/**
 * `sqlite.prepare(text)` once per connection for the fixed texts of code that runs all the time (the search indexer
 * steps every 200 ms when idle, and between commits under load: preparing its statements was over half of a step's CPU).
 * A statement still being iterated gets a fresh one meanwhile. Only for texts a program holds, never built from input:
 * the set must stay small.
 */
export function prepared(sqlite: SQLite.Database, text: string): SQLite.Statement {
  let cache = preparedByConnection.get(sqlite)
  if (!cache) preparedByConnection.set(sqlite, (cache = new Map()))
  const cached = cache.get(text)
  if (cached && !cached.busy) return cached
  const statement = sqlite.prepare(text)
  if (!cached) cache.set(text, statement)
  return statement
}
