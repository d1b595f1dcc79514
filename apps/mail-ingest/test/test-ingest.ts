import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrateToLatest, openStorage, type Db, type Storage } from '@tempbox/db'
import { migratedSqliteFile } from '@tempbox/db/testing'
import { loadConfig, storageConfig } from '../src/config.js'
import { createSmtpServer, type IngestServer } from '../src/smtp-server.js'

/** A migrated database of a test's own, in a temporary folder that also holds whatever files the test writes. */
export interface TestDatabase {
  dir: string
  /** The SQLite file (ingest's DATABASE_PATH, given even on PostgreSQL). */
  path: string
  /** The PostgreSQL database when the test runs on one, else undefined (the SQLite file). */
  url: string | undefined
  storage: Storage
  db: Db
  /** Closes the test's connection and removes the folder. */
  close: () => Promise<void>
}

/**
 * A new folder named after `prefix` with a migrated database: the SQLite file in it, or `url`'s PostgreSQL database
 * (migrated here unless it already is: give migratedPostgresDatabase's copy of the run's template when it can be).
 */
export async function openTestDatabase(prefix: string, url?: string): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`))
  const path = join(dir, 'tempbox.sqlite')
  // A copy of a file migrated once per process: migrating each test's own file cost ~130 ms (an fsync per migration).
  if (!url) await migratedSqliteFile(path)
  const storage = openStorage({ path, url })
  await migrateToLatest(storage.db)
  return {
    dir, path, url, storage, db: storage.db,
    close: async () => {
      await storage.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface TestIngest {
  ingest: IngestServer
  port: number
  /** Closes the server, then its own connection if it has one. */
  close: () => Promise<void>
}

/**
 * A real SMTP server on `database`, listening on a free loopback port, configured by `env` over the port and the
 * database. `ownConnection`: a connection of its own, as a second node has, and so that the writer's per-connection
 * caps (MAX_DATABASE_BYTES) stay off the test's connection; otherwise it shares the test's.
 */
export async function startIngest(
  database: Pick<TestDatabase, 'path' | 'url' | 'storage'>,
  env: Record<string, string> = {},
  { clock, ownConnection = false }: { clock?: () => number; ownConnection?: boolean } = {},
): Promise<TestIngest> {
  const config = loadConfig({ SMTP_PORT: '0', DATABASE_PATH: database.path, ...(database.url ? { DATABASE_URL: database.url } : {}), ...env })
  const storage = ownConnection ? openStorage(storageConfig(config)) : database.storage
  const ingest = createSmtpServer({ storage, config, clock })
  return {
    ingest,
    port: await ingest.listen(),
    close: async () => {
      await ingest.close()
      if (ownConnection) await storage.close()
    },
  }
}
