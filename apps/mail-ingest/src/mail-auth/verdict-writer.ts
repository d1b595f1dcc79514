import type { Db } from '@tempbox/db'
import type { SqliteHandle } from '../store-message.js'
import type { AuthVerdict } from './check.js'

/** Verdicts written together: one transaction (one write lock taken from the store worker) per batch, not per message. */
const MAX_BATCH = 256
/** How long a verdict may wait for others to share its transaction. */
const BATCH_DELAY_MS = 50

/**
 * Replaces each message's `checking` row with its verdict. A message deleted meanwhile has no row left, and the
 * UPDATE simply changes nothing.
 */
export function createVerdictWriter(db: Db, sqlite: SqliteHandle, now: () => number = Date.now) {
  const update = sqlite.prepare(
    db.updateTable('message_auth')
      .set({ status: 'unknown', details: '', authentication_results: '', checked_at: 0 })
      .where('message_content_id', '=', 0)
      .compile().sql,
  )
  const writeBatch = sqlite.transaction((batch: [number, AuthVerdict][]) => {
    const at = now()
    for (const [contentId, v] of batch) {
      update.run(v.status, v.details ? JSON.stringify(v.details) : null, v.authenticationResults, at, contentId)
    }
  })
  const pending: [number, AuthVerdict][] = []
  let timer: NodeJS.Timeout | null = null
  const flush = () => {
    if (timer) clearTimeout(timer)
    timer = null
    while (pending.length > 0) {
      const batch = pending.splice(0, MAX_BATCH)
      try {
        writeBatch(batch)
      } catch (error) {
        // A verdict is worth less than ingest: a locked or full store loses these (they read "checking" until the
        // next start marks them unknown), and mail keeps flowing.
        console.error('[mail-auth] storing verdicts failed:', error instanceof Error ? error.message : error)
      }
    }
  }
  return {
    write(contentId: number, verdict: AuthVerdict) {
      pending.push([contentId, verdict])
      if (pending.length >= MAX_BATCH) flush()
      else timer ??= setTimeout(flush, BATCH_DELAY_MS)
    },
    flush,
  }
}

/**
 * Rows left `checking` by a process that stopped before answering them: nobody will check them now. Runs on the SMTP
 * thread before anything is accepted — in the worker it raced the first messages of this run and marked them unknown.
 */
export function settleLeftoverChecks(sqlite: SqliteHandle, now: () => number = Date.now): number {
  return sqlite.prepare("UPDATE message_auth SET status = 'unknown', checked_at = ? WHERE status = 'checking'").run(now()).changes
}
