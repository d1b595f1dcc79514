import { inject } from 'vitest'
import { createTestDatabase } from './postgres.js'

export { startPostgres, createTestDatabase, databaseUrl, postgresBinDir, type PostgresServer } from './postgres.js'

/** The engines every storage test runs on, for `describe.each(ENGINES)`. */
export const ENGINES = ['sqlite', 'postgres'] as const
export type TestEngine = (typeof ENGINES)[number]

/** A new empty database on the run's PostgreSQL (see global-setup.ts); returns its URL. */
export function freshPostgresDatabase(prefix?: string): Promise<string> {
  return createTestDatabase(inject('postgresUrl'), prefix)
}
