import { sql } from 'kysely'
import { createPostgresPool } from '../../postgres-db.js'
import { findActiveInbox, settleLeftoverChecks } from '../queries.js'
import type { Storage, StorageConfig } from '../storage.js'
import { writeVerdicts } from './write-verdicts.js'

/**
 * PostgreSQL through a pool of `pg` connections (Kysely's PostgresDialect for the repositories). Durable by the
 * server's own settings (synchronous_commit=on: a COMMIT returns once the WAL is flushed); `durable: false` turns
 * that off for this storage's sessions only.
 */
export function openPostgresStorage(config: StorageConfig & { url: string }): Storage {
  const { db, pool } = createPostgresPool(config)
  return {
    engine: 'postgres',
    db,
    async ping() {
      await sql`select 1`.execute(db)
    },
    async watchNewMail() {
      throw new Error('watchNewMail on PostgreSQL is not written yet')
    },
    findActiveInbox: (address, now) => findActiveInbox(db, address, now),
    async databaseBytes() {
      // The files of this database, free space inside them included: PostgreSQL reuses it (VACUUM) before they grow.
      const { rows } = await pool.query<{ bytes: number }>('SELECT pg_database_size(current_database()) AS bytes')
      return rows[0]!.bytes
    },
    async freeDiskBytes() {
      // The server's disk is not ours to see; its own limits (and maxDatabaseBytes) apply.
      return Infinity
    },
    settleLeftoverChecks: (now) => settleLeftoverChecks(db, now),
    messageWriter() {
      throw new Error('messageWriter on PostgreSQL is not written yet')
    },
    async checkpoint() {
      // PostgreSQL checkpoints by itself (checkpoint_timeout, max_wal_size).
    },
    writeVerdicts: (batch, at) => writeVerdicts(pool, batch, at),
    async close() {
      await db.destroy()
    },
  }
}
