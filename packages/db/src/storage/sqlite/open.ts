import { sql } from 'kysely'
import { createDb } from '../../create-db.js'
import { registerTextFunctions } from '../text-functions.js'
import type { CommitSignal, Storage } from '../storage.js'

/**
 * The embedded engine: one SQLite file shared by mail-ingest and the API (WAL, synchronous=FULL: see createDb).
 * `busyTimeoutMs` as createDb's.
 */
export function openSqliteStorage(config: { path: string; busyTimeoutMs?: number }): Storage {
  const { db, sqlite } = createDb(config)
  registerTextFunctions(sqlite)
  const signals = new Set<CommitSignal>()
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
        close: () => {
          signals.delete(signal)
          signal.close()
        },
      }
    },
    async close() {
      for (const signal of signals) signal.close()
      signals.clear()
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
    close() {
      if (!open) return
      open = false
      probe.close()
    },
  }
}
