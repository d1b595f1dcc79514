import { sql } from 'kysely'
import { createDb } from '../../create-db.js'
import { searchIndexPath } from '../../search/index-file.js'
import { searchIndexBacklog } from '../../search/index-backlog.js'
import { searchIndexReaderOf } from '../../search/index-readers.js'
import { searchIndexerOn } from '../../search/indexer.js'
import { findActiveInbox, settleLeftoverChecks } from '../queries.js'
import { registerTextFunctions } from '../text-functions.js'
import type { CommitSignal, Storage, StorageConfig } from '../storage.js'
import { databaseBytes, freeDiskBytes } from './disk.js'
import { createMessageWriter } from './write-messages.js'
import { createVerdictWriter } from './write-verdicts.js'

/**
 * The embedded engine: one SQLite file shared by mail-ingest and the API (WAL, synchronous=FULL: see createDb).
 * `busyTimeoutMs` as createDb's.
 */
export function openSqliteStorage(config: StorageConfig): Storage {
  const { db, sqlite } = createDb(config)
  if (config.durable === false) sqlite.pragma('synchronous = NORMAL')
  registerTextFunctions(sqlite)
  const signals = new Set<CommitSignal>()
  let writeVerdicts: ReturnType<typeof createVerdictWriter> | null = null
  const indexPath = searchIndexPath(config.path)
  const indexer = indexPath ? searchIndexerOn(sqlite, indexPath) : null
  return {
    engine: 'sqlite',
    db,
    async ping() {
      await sql`select 1`.execute(db)
    },
    async watchNewMail() {
      const signal = dataVersionSignal(config.path)
      signals.add(signal)
      return {
        changed: () => signal.changed(),
        deafSince: () => null,
        close: () => {
          signals.delete(signal)
          signal.close()
        },
      }
    },
    async watchDeletes() {
      return { close: () => undefined }
    },
    async watchChanges() {
      return { close: () => undefined }
    },
    findActiveInbox: (address, now) => findActiveInbox(db, address, now),
    async databaseBytes() {
      return databaseBytes(sqlite)
    },
    async freeDiskBytes() {
      return freeDiskBytes(config.path)
    },
    settleLeftoverChecks: (now) => settleLeftoverChecks(db, now),
    messageWriter(limits, options) {
      if (options?.autocheckpointBytes) {
        // Counted in pages: a file created before 16 KB pages keeps its own size.
        sqlite.pragma(`wal_autocheckpoint = ${Math.floor(options.autocheckpointBytes / Number(sqlite.pragma('page_size', { simple: true })))}`)
      }
      return createMessageWriter(db, sqlite, limits)
    },
    async checkpoint() {
      sqlite.pragma('wal_checkpoint(PASSIVE)')
    },
    indexesSearchApart: indexPath !== null,
    async indexSearchStep() {
      return indexer ? indexer.step() : null
    },
    async searchIndexBacklog() {
      return indexPath ? searchIndexBacklog(sqlite, searchIndexReaderOf(db)) : null
    },
    async writeVerdicts(batch, at) {
      writeVerdicts ??= createVerdictWriter(db, sqlite, config.durable !== false)
      writeVerdicts(batch, at)
    },
    backgroundDb({ busyTimeoutMs }) {
      const own = openSqliteStorage({ ...config, busyTimeoutMs, durable: false })
      return { db: own.db, close: () => own.close() }
    },
    async close() {
      for (const signal of signals) signal.close()
      signals.clear()
      indexer?.close()
      await db.destroy()
    },
  }
}

/**
 * `PRAGMA data_version` on a connection of its own: a few microseconds, and it changes only when another connection
 * committed. A connection's own commits never change it, hence the separate one.
 */
function dataVersionSignal(path: string): CommitSignal {
  const probe = createDb({ path }).sqlite
  // Prepared once: `pragma()` would prepare the statement again on every read.
  const version = probe.prepare('PRAGMA data_version').pluck()
  let seen = version.get() as number
  let open = true
  return {
    changed() {
      if (!open) return false
      const now = version.get() as number
      if (now === seen) return false
      seen = now
      return true
    },
    deafSince: () => null,
    close() {
      if (!open) return
      open = false
      probe.close()
    },
  }
}
