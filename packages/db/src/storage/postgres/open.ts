import { sql } from 'kysely'
import { createPostgresPool } from '../../postgres-db.js'
import { settleLeftoverChecks } from '../queries.js'
import type { Storage, StorageConfig } from '../storage.js'
import { findActiveInbox } from './find-active-inbox.js'
import { NotificationListener } from './listener.js'
import type { ChangeEvent, DeleteEvent, NewMail } from './notify.js'
import { createPostgresMessageWriter } from './write-messages.js'
import { writeVerdicts } from './write-verdicts.js'

interface Watcher {
  changed: boolean
  onMail?: (mail: NewMail | null) => void
}

/**
 * PostgreSQL through a pool of `pg` connections (Kysely's PostgresDialect for the repositories). Durable by the
 * server's own settings (synchronous_commit=on: a COMMIT returns once the WAL is flushed); `durable: false` turns
 * that off for this storage's sessions only. Change notification: LISTEN on one connection of its own, opened at
 * the first watch.
 */
export function openPostgresStorage(config: StorageConfig & { url: string }): Storage {
  const { db, pool } = createPostgresPool(config)
  const mailWatchers = new Set<Watcher>()
  const deleteWatchers = new Set<(event: DeleteEvent) => void>()
  const changeWatchers = new Set<(event: ChangeEvent) => void>()
  const listener = new NotificationListener(config.url, {
    newMail(mail) {
      for (const w of mailWatchers) {
        w.changed = true
        w.onMail?.(mail)
      }
    },
    deletes(event) {
      for (const onDelete of deleteWatchers) onDelete(event)
    },
    changes(event) {
      for (const onChange of changeWatchers) onChange(event)
    },
    reconnected() {
      for (const w of mailWatchers) {
        w.changed = true
        w.onMail?.(null)
      }
      for (const onDelete of deleteWatchers) onDelete({ type: 'unknown' })
      for (const onChange of changeWatchers) onChange({ type: 'unknown' })
    },
  })
  const databaseBytes = async () => {
    // The files of this database, free space inside them included: PostgreSQL reuses it (VACUUM) before they grow.
    const { rows } = await pool.query<{ bytes: number }>('SELECT pg_database_size(current_database()) AS bytes')
    return rows[0]!.bytes
  }

  return {
    engine: 'postgres',
    db,
    async ping() {
      await sql`select 1`.execute(db)
    },
    async watchNewMail(onMail) {
      await listener.start()
      const watcher: Watcher = { changed: false, onMail }
      mailWatchers.add(watcher)
      return {
        changed() {
          const changed = watcher.changed
          watcher.changed = false
          return changed
        },
        deafSince: () => listener.lostAt,
        close: () => {
          mailWatchers.delete(watcher)
        },
      }
    },
    async watchDeletes(onDelete) {
      await listener.start()
      // A function of its own per watch, so the same handler watched twice is closed once each.
      const handler = (event: DeleteEvent) => onDelete(event)
      deleteWatchers.add(handler)
      return { close: () => deleteWatchers.delete(handler) }
    },
    async watchChanges(onChange) {
      await listener.start()
      const handler = (event: ChangeEvent) => onChange(event)
      changeWatchers.add(handler)
      return { close: () => changeWatchers.delete(handler) }
    },
    findActiveInbox: (address, now) => findActiveInbox(pool, address, now),
    databaseBytes,
    async freeDiskBytes() {
      // The server's disk is not ours to see; its own limits (and maxDatabaseBytes) apply.
      return Infinity
    },
    settleLeftoverChecks: (now) => settleLeftoverChecks(db, now),
    messageWriter: (limits) => createPostgresMessageWriter(pool, limits, databaseBytes),
    async checkpoint() {
      // PostgreSQL checkpoints by itself (checkpoint_timeout, max_wal_size).
    },
    indexesSearchApart: false,
    async indexSearchStep() {
      // The GIN index is kept by PostgreSQL itself (its pending list takes the inserts).
      return null
    },
    async searchIndexBacklog() {
      return null
    },
    writeVerdicts: (batch, at) => writeVerdicts(pool, batch, at),
    backgroundDb() {
      return { db, close: async () => undefined }
    },
    async close() {
      mailWatchers.clear()
      deleteWatchers.clear()
      changeWatchers.clear()
      await listener.close()
      await db.destroy()
    },
  }
}
