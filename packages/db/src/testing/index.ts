import { expect, inject } from 'vitest'
import { createDb, migrateToLatest, type Db } from '../create-db.js'
import { createPostgresDb } from '../postgres-db.js'
import { createTestDatabase, dropTestDatabases } from './postgres.js'
// Its `ProvidedContext` declaration types inject('postgresUrl') for packages that type-check this file without it.
import type {} from './global-setup.js'

export { startPostgres, createTestDatabase, databaseUrl, postgresBinDir, type PostgresServer } from './postgres.js'
export { migratedSqliteFile } from './sqlite-template.js'
export { refuseWrites } from './refuse-writes.js'

/** The engines every storage test runs on, for `describe.each(ENGINES)`. */
export const ENGINES = ['sqlite', 'postgres'] as const
export type TestEngine = (typeof ENGINES)[number]

/** The databases this worker made, by the test file that asked for them (or that a drop found still in use). */
const madeFor = new Map<string, string[]>()
/** The drop under way, one at a time. */
let dropping: Promise<void> = Promise.resolve()

/**
 * A database for the running test file. A worker runs its files one after another, so the databases of the files
 * before it are dropped, keeping the server's size to about one file's worth (its files may be in memory,
 * postgres.ts). A database still connected to is left for a later turn: nothing a file may still use is dropped.
 */
async function testDatabase(prefix: string | undefined, template?: string): Promise<string> {
  const serverUrl = inject('postgresUrl')
  const file = expect.getState().testPath ?? ''
  const earlier = [...madeFor].filter(([owner]) => owner !== file)
  if (earlier.length > 0) {
    for (const [owner] of earlier) madeFor.delete(owner)
    // Not awaited: a drop took ~0.3 s of waiting on the server, ten seconds per file, which its tests need not wait for.
    dropping = dropping
      .then(() => dropTestDatabases(serverUrl, earlier.flatMap(([, names]) => names)))
      .then(
        (inUse) => void (inUse.length > 0 && madeFor.set(file, [...inUse, ...(madeFor.get(file) ?? [])])),
        (err: unknown) => console.warn(`[db] dropping the earlier test files' databases failed: ${String(err)}`),
      )
  }
  const url = await createTestDatabase(serverUrl, prefix, template)
  madeFor.set(file, [...(madeFor.get(file) ?? []), new URL(url).pathname.slice(1)])
  return url
}

/** A new empty database on the run's PostgreSQL (see global-setup.ts); returns its URL. */
export function freshPostgresDatabase(prefix?: string): Promise<string> {
  return testDatabase(prefix)
}

/** A new database on the run's PostgreSQL already migrated to the latest schema (a copy of the run's template); returns its URL. */
export function migratedPostgresDatabase(prefix?: string): Promise<string> {
  return testDatabase(prefix, inject('postgresTemplate'))
}

/**
 * A new, migrated database on `engine`: an in-memory SQLite, or a copy of the run's migrated template on its
 * PostgreSQL (migrating an empty one cost the server a third more CPU). Destroy it after the test.
 */
export async function freshTestDb(engine: TestEngine): Promise<Db> {
  const db = engine === 'postgres' ? createPostgresDb({ url: await migratedPostgresDatabase() }) : createDb({ path: ':memory:' }).db
  await migrateToLatest(db)
  return db
}
