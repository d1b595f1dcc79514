/**
 * Worker thread that brings the database to the latest schema and ends (migrate-apart.ts): the migrations load
 * @tempbox/mail-derive, whose heap ends with this thread instead of staying in the SMTP thread's (issue 29).
 */
import { workerData } from 'node:worker_threads'
import { migrateToLatest, openStorage, type StorageConfig } from '@tempbox/db'
import { signalReady } from './worker-rpc.js'

const storage = openStorage((workerData as { database: StorageConfig }).database)
try {
  await migrateToLatest(storage.db)
} finally {
  await storage.close()
}
signalReady()
