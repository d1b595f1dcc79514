import type SQLite from 'better-sqlite3'
import type { Db } from '../../create-db.js'
import type { StoredVerdict } from '../storage.js'

/**
 * One prepared UPDATE, run for a whole batch inside one synchronous transaction. On a durable connection (ingest's
 * store connection, which stores the verdicts between its message batches) the transaction skips the fsync: verdicts
 * need not survive a power loss (a lost one reads "checking" until the next start marks it unknown), and in WAL mode
 * the next message commit's fsync makes them durable with it.
 */
export function createVerdictWriter(db: Db, sqlite: SQLite.Database, durable: boolean) {
  const update = sqlite.prepare(
    db.updateTable('message_auth')
      .set({ status: 'unknown', details: '', authentication_results: '', checked_at: 0 })
      .where('message_content_id', '=', 0)
      .compile().sql,
  )
  const write = sqlite.transaction((batch: readonly (readonly [number, StoredVerdict])[], at: number) => {
    for (const [contentId, v] of batch) update.run(v.status, v.details, v.authenticationResults, at, contentId)
  })
  if (!durable) return write
  // Not prepared once: SQLite applies `PRAGMA synchronous = …` when it compiles the statement, not when it runs it.
  return (batch: readonly (readonly [number, StoredVerdict])[], at: number) => {
    sqlite.pragma('synchronous = NORMAL')
    try {
      write(batch, at)
    } finally {
      sqlite.pragma('synchronous = FULL')
    }
  }
}
