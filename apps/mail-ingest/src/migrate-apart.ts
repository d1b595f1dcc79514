import { hasPendingMigrations, type Db } from '@tempbox/db'
import type { StorageConfig } from '@tempbox/db/storage'
import { startWorker } from './worker-rpc.js'

/**
 * Runs the pending migrations on a thread that ends once they are done: loaded on the SMTP thread, the migrations and
 * @tempbox/mail-derive (which a backfill needs) stayed in its heap for the process's life. Rejects when one fails (the
 * worker logs why); ingest then does not start.
 */
export async function migrateApart(database: StorageConfig): Promise<void> {
  const worker = startWorker(new URL('./migrate-worker.ts', import.meta.url), { workerData: { database }, onMessage: () => {}, onCrash: () => {} })
  try {
    await worker.ready
  } finally {
    await worker.stop()
  }
}

/**
 * migrateApart only when `db` (the same database) has a migration pending: the thread costs about a CPU-second to load
 * the migrations, and the schema is usually current already (the api migrated it). Resolves whether it migrated.
 */
export async function migrateWhenPending(db: Db, database: StorageConfig): Promise<boolean> {
  if (!(await hasPendingMigrations(db))) return false
  await migrateApart(database)
  return true
}
