import type SQLite from 'better-sqlite3'
import type { Db } from '../../create-db.js'
import type { StoredVerdict } from '../storage.js'

/** One prepared UPDATE, run for a whole batch inside one synchronous transaction. */
export function createVerdictWriter(db: Db, sqlite: SQLite.Database) {
  const update = sqlite.prepare(
    db.updateTable('message_auth')
      .set({ status: 'unknown', details: '', authentication_results: '', checked_at: 0 })
      .where('message_content_id', '=', 0)
      .compile().sql,
  )
  return sqlite.transaction((batch: readonly (readonly [number, StoredVerdict])[], at: number) => {
    for (const [contentId, v] of batch) update.run(v.status, v.details, v.authenticationResults, at, contentId)
  })
}
