/**
 * Worker thread that copies committed WAL frames into the database file. SQLite would otherwise do it
 * inside whichever commit crosses the autocheckpoint size, on the store worker: every few batches one
 * commit would also write and fsync megabytes of the main file while SMTP clients wait for their 250.
 * Here it overlaps with the next batches instead (a PASSIVE checkpoint never blocks the writer). The same
 * thread fills SQLite's search index after the commits (search-indexer.ts), off the store worker's lock.
 */
import { workerData, type MessagePort } from 'node:worker_threads'
import { openStorage, type StorageConfig } from '@tempbox/db/storage'
import { startSearchIndexer } from './search-indexer.js'
import { signalReady } from './worker-rpc.js'
import type { CommitNotice } from './pipeline-messages.js'

const { database, storePort, checkpointBytes } = workerData as { database: StorageConfig; storePort: MessagePort; checkpointBytes: number }
const storage = openStorage(database)

let pendingBytes = 0
let idleTimer: NodeJS.Timeout | null = null

function checkpoint(): void {
  pendingBytes = 0
  if (idleTimer) clearTimeout(idleTimer)
  idleTimer = null
  void storage.checkpoint()
}

storePort.on('message', ({ bytes }: CommitNotice) => {
  pendingBytes += bytes
  if (pendingBytes >= checkpointBytes) checkpoint()
  // A quiet spell after a burst: fold the rest in too, so readers find a short WAL.
  else idleTimer ??= setTimeout(checkpoint, 200)
})
startSearchIndexer(storage)
signalReady()
