import type { TestProject } from 'vitest/node'
import { migrateToLatest } from '../create-db.js'
import { createPostgresDb } from '../postgres-db.js'
import { createTestDatabase, startPostgres } from './postgres.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's throwaway PostgreSQL; test files make their own database on it (`freshPostgresDatabase`). */
    postgresUrl: string
    /** A database migrated to the latest schema, for `CREATE DATABASE … TEMPLATE` (a copy costs less than migrating). */
    postgresTemplate: string
  }
}

/**
 * vitest globalSetup: one PostgreSQL serves a package's whole run (starting one costs seconds; a database costs
 * milliseconds). vitest calls the returned teardown after the run, failed or not.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres({ durable: false })
  try {
    const template = await createTestDatabase(server.url, 'template')
    const db = createPostgresDb({ url: template, poolSize: 1 })
    await migrateToLatest(db).finally(() => db.destroy())
    project.provide('postgresUrl', server.url)
    project.provide('postgresTemplate', new URL(template).pathname.slice(1))
  } catch (err) {
    await server.stop()
    throw err
  }
  return () => server.stop()
}
