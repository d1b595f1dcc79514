import { join } from 'node:path'
import { migratedPostgresDatabase, migratedSqliteFile } from '@tempbox/db/testing'
import { loadConfig, type Config } from '../src/config.js'
import { buildApp, type App } from '../src/app.js'
import { removeFolders, testFolder } from './test-folders.js'

/**
 * A fresh app on a fresh database file (unless `env.DATABASE_PATH` says otherwise), silent, without the web build. The
 * file is a copy of one migrated once per test process: the app's own migration step finds nothing left to run.
 * A file rather than `:memory:`, so the mail watcher runs production's `PRAGMA data_version` check on a connection of
 * its own. In vitest's `postgres` project (vitest.config.ts) the app gets a database of its own on the run's
 * PostgreSQL instead, unless `env` names a database. Close it after the test: `afterEach(() => app.close())`.
 * `adjust` sets what the environment cannot say as briefly as a test needs (a retry window of seconds, say);
 * `beforeReady` may add hooks, which Fastify refuses once the app is ready.
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  adjust: (config: Config) => Config = (c) => c,
  beforeReady: (app: App) => void = () => undefined,
): Promise<App> {
  removeFolders(false)
  const { dir, state } = testFolder()
  try {
    const databasePath = join(dir, 'tempbox.sqlite')
    const engine = await engineEnv(env)
    if (env.DATABASE_PATH === undefined && (env.DATABASE_URL ?? engine.DATABASE_URL) === undefined) await migratedSqliteFile(databasePath)
    const config = loadConfig({ DATABASE_PATH: databasePath, LOG_LEVEL: 'silent', WEB_DIST_DIR: '', ...cheapHashing(env), ...engine, ...env })
    const app = await buildApp(adjust(config))
    app.addHook('onClose', async () => {
      state.closed = true
    })
    beforeReady(app)
    await app.ready()
    return app
  } catch (error) {
    // An app that failed to start (a test of a refused configuration) is never closed: its folder can go.
    state.closed = true
    throw error
  }
}

/**
 * Lets the event loop turn once. `inject()` runs a request in the same turn as the code before it, where over HTTP a
 * request sent after a commit always arrives in a later turn — which the mail watcher's once-per-turn check relies on.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * argon2id at 64 KiB × 1 pass, not production's 7 MiB × 5 (~36 ms a hash; every app hashes at start, many tests
 * several times more). With APP_ENV=production an app keeps the default cost, as it refuses less there.
 */
function cheapHashing(env: Record<string, string | undefined>): Record<string, string> {
  return env.APP_ENV === 'production' ? {} : { PASSWORD_HASH_MEMORY_KIB: '64', PASSWORD_HASH_PASSES: '1' }
}

/** True in vitest's `postgres` project: the suite's apps run on the run's throwaway PostgreSQL. */
export const onPostgres = process.env.TEST_ENGINE === 'postgres'

/**
 * The database a test app gets in the `postgres` project: a copy of the run's migrated template, its own. Its pool
 * keeps two connections, not ten: each connection is a server process to start, with catalog caches of its own, and
 * an app's start-up queries opened seven or eight at once.
 */
async function engineEnv(env: Record<string, string>): Promise<Record<string, string>> {
  if (!onPostgres || env.DATABASE_URL !== undefined || env.DATABASE_PATH !== undefined) return {}
  return { DATABASE_POOL_SIZE: '2', DATABASE_URL: await migratedPostgresDatabase('api'), JWT_SECRET: 'the test run’s secret, shared as every node’s is' }
}
