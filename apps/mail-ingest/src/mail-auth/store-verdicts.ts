import type { MessagePort } from 'node:worker_threads'
import type { Storage } from '@tempbox/db'
import type { VerdictBatch } from './protocol.js'

/**
 * Stores the verdicts that come back on `port` (the committing thread's end), on this thread's storage: between its
 * message batches, never inside one (SQLite's writes are synchronous there).
 */
export function storeVerdictsFrom(port: MessagePort, storage: Pick<Storage, 'writeVerdicts'>): void {
  port.on('message', ({ verdicts, at }: VerdictBatch) => {
    storage.writeVerdicts(verdicts, at).catch((error: unknown) => {
      // A verdict is worth less than ingest: a locked or full store loses these (they read "checking" until the next
      // start marks them unknown), and mail keeps flowing.
      console.error('[mail-auth] storing verdicts failed:', error instanceof Error ? error.message : error)
    })
  })
}
