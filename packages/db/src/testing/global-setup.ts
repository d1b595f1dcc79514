import type { TestProject } from 'vitest/node'
import { startPostgres } from './postgres.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's throwaway PostgreSQL; test files make their own database on it (`freshPostgresDatabase`). */
    postgresUrl: string
  }
}

/**
 * vitest globalSetup: one PostgreSQL serves a package's whole run (starting one costs seconds; a database costs
 * milliseconds). vitest calls the returned teardown after the run, failed or not.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres()
  project.provide('postgresUrl', server.url)
  return () => server.stop()
}
