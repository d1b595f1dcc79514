/**
 * Worker thread that keeps the WAL short and fills the search index (wal-checkpointer.ts) when the sender check is off;
 * otherwise the sender-check worker does it, which saves an isolate and a load of @tempbox/db (~20–30 MB, issue 29).
 */
import { workerData, type MessagePort } from 'node:worker_threads'
import { openStorage, type StorageConfig } from '@tempbox/db/storage'
import { startWalCheckpointer } from './wal-checkpointer.js'
import { signalReady } from './worker-rpc.js'

const { database, storePort, checkpointBytes } = workerData as { database: StorageConfig; storePort: MessagePort; checkpointBytes: number }
startWalCheckpointer(openStorage(database), storePort, checkpointBytes)
signalReady()
