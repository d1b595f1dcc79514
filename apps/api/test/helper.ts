import { loadConfig } from '../src/config.js'
import { buildApp, type App } from '../src/app.js'

/**
 * A fresh app on an in-memory database (unless `env.DATABASE_PATH` says otherwise), silent, without the web build.
 * Close it after the test: `afterEach(() => app.close())`.
 */
export async function buildTestApp(env: Record<string, string> = {}): Promise<App> {
  const config = loadConfig({ DATABASE_PATH: ':memory:', LOG_LEVEL: 'silent', WEB_DIST_DIR: '', ...env })
  const app = await buildApp(config)
  await app.ready()
  return app
}
