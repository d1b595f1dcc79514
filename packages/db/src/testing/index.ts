import { inject } from 'vitest'
import { createDb, migrateToLatest, type Db } from '../create-db.js'
import { createPostgresDb } from '../postgres-db.js'
import { createTestDatabase } from './postgres.js'
// Its `ProvidedContext` declaration types inject('postgresUrl') for packages that type-check this file without it.
import type {} from './global-setup.js'

export { startPostgres, createTestDatabase, databaseUrl, postgresBinDir, type PostgresServer } from './postgres.js'
export { migratedSqliteFile } from './sqlite-template.js'
export { refuseWrites } from './refuse-writes.js'

/** The engines every storage test runs on, for `describe.each(ENGINES)`. */
export const ENGINES = ['sqlite', 'postgres'] as const
export type TestEngine = (typeof ENGINES)[number]

/** A new empty database on the run's PostgreSQL (see global-setup.ts); returns its URL. */
export function freshPostgresDatabase(prefix?: string): Promise<string> {
  return createTestDatabase(inject('postgresUrl'), prefix)
}

/** A new database on the run's PostgreSQL already migrated to the latest schema (a copy of the run's template); returns its URL. */
export function migratedPostgresDatabase(prefix?: string): Promise<string> {
  return createTestDatabase(inject('postgresUrl'), prefix, inject('postgresTemplate'))
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
