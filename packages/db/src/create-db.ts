import { closeSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, Migrator, SqliteDialect } from 'kysely'
import { cachingStatements } from './storage/sqlite/statement-cache.js'
import { createPostgresDb, engineOf, isPostgresUrl } from './postgres-db.js'
import { closeSearchIndexReaderOf, registerSearchIndex } from './search/index-readers.js'
import type { Database } from './schema.js'

export type Db = Kysely<Database>

/** The storage engines behind `Db`: the embedded SQLite file (the default) or a PostgreSQL server. */
export type Engine = 'sqlite' | 'postgres'

export interface DbConfig {
  /** Path of the SQLite file, or ':memory:'. */
  path: string
  /** How long a writer waits for another process's lock before failing (ms). */
  busyTimeoutMs?: number
}

/** Default wait for the other process's write lock: ingest and API share one file. */
const DEFAULT_BUSY_TIMEOUT_MS = 5000

/** Modes of a data folder and database file this creates (an existing one keeps its own). */
export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/**
 * Page size of a new database file. A 100 KB message spans 25 pages of SQLite's default 4 KB, and every page costs
 * two writes into the WAL and a read and a write when checkpointed: 16 KB pages cut the CPU of storing it roughly in
 * half (system time above all), and small messages gain too. A file that already exists keeps its page size.
 */
export const PAGE_SIZE = 16_384

/**
 * Opens the one SQLite file both servers share.
 * WAL lets the API read while mail-ingest writes; synchronous=FULL makes every committed
 * transaction durable across power loss before we answer SMTP 250.
 */
export function createDb(config: DbConfig): { db: Db; sqlite: SQLite.Database } {
  if (config.path !== ':memory:') {
    // Mail, accounts and password hashes live here: only the service's own user may read them. SQLite gives the -wal
    // and -shm files the mode of the main file, so creating that one 0600 first keeps all three private.
    mkdirSync(dirname(config.path), { recursive: true, mode: PRIVATE_DIR_MODE })
    closeSync(openSync(config.path, 'a', PRIVATE_FILE_MODE))
  }
  const sqlite = new SQLite(config.path)
  // Only takes effect on an empty file, and must come before WAL mode writes the header.
  sqlite.pragma(`page_size = ${PAGE_SIZE}`)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma(`busy_timeout = ${config.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`)
  const statements = cachingStatements(sqlite)
  const db: Db = new Kysely<Database>({
    dialect: new SqliteDialect({
      database: {
        ...statements,
        close: () => {
          closeSearchIndexReaderOf(db)
          statements.close()
        },
      },
    }),
  })
  registerSearchIndex(db, config.path)
  return { db, sqlite }
}

export interface OpenDbConfig extends DbConfig {
  /** DATABASE_URL: a `postgres://` URL picks PostgreSQL; unset (or anything else) keeps the SQLite file at `path`. */
  url?: string
  /** PostgreSQL only: connections this process keeps open at most. */
  poolSize?: number
}

/**
 * Opens the database the configuration names. `sqlite` is the raw handle of the SQLite file, null on PostgreSQL: code
 * that still needs it (the data_version watcher, the checkpoint) has no counterpart there yet.
 */
export function openDb(config: OpenDbConfig): { db: Db; engine: Engine; sqlite: SQLite.Database | null } {
  if (isPostgresUrl(config.url)) return { db: createPostgresDb({ url: config.url, poolSize: config.poolSize }), engine: 'postgres', sqlite: null }
  return { ...createDb(config), engine: 'sqlite' }
}

/** Runs every pending migration of the db's engine; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<void> {
  // A start on an up-to-date database (almost every start) reads one table rather than running the migrator.
  const { ranExactlyOurMigrations } = await import('./migrations/pending.js')
  if (await ranExactlyOurMigrations(db)) return
  // Loaded here, not at the top: the migrations pull in @tempbox/mail-derive (~15 MB of heap), which ingest's store,
  // checkpoint and sender-check threads would otherwise each hold without ever migrating.
  const { migrationProviderFor } = await import('./migrations/index.js')
  const provider = migrationProviderFor(engineOf(db))
  // Parallel work lands migrations whose names sort before one already shipped (000301 after 001201): a database that
  // ran the later one must still take the earlier one rather than refuse to start.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? '')
    throw new Error(`[db] migration ${failed?.migrationName ?? ''} failed: ${reason}`)
  }
}
