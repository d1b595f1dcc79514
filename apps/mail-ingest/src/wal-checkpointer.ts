import type { MessagePort } from 'node:worker_threads'
import type { Storage } from '@tempbox/db'
import type { CommitNotice } from './pipeline-messages.js'
import { startSearchIndexer } from './search-indexer.js'

/** A quiet spell after a burst: fold the rest in too, so readers find a short WAL. */
const IDLE_CHECKPOINT_MS = 200

/**
 * Copies committed WAL frames into the database file once `checkpointBytes` were committed (the store worker's notices on
 * `storePort`; a PASSIVE checkpoint never blocks the writer), and fills the search index. Left to SQLite, the commit that
 * crosses the autocheckpoint size would write and fsync megabytes of the main file while SMTP clients wait for their 250.
 * Runs on the sender-check worker, or on a worker of its own when that is off.
 */
export function startWalCheckpointer(storage: Storage, storePort: MessagePort, checkpointBytes: number): void {
  let pendingBytes = 0
  let idleTimer: NodeJS.Timeout | null = null
  const checkpoint = () => {
    pendingBytes = 0
    if (idleTimer) clearTimeout(idleTimer)
    idleTimer = null
    void storage.checkpoint()
  }
  storePort.on('message', ({ bytes }: CommitNotice) => {
    pendingBytes += bytes
    if (pendingBytes >= checkpointBytes) checkpoint()
    else idleTimer ??= setTimeout(checkpoint, IDLE_CHECKPOINT_MS)
  })
  startSearchIndexer(storage)
}
