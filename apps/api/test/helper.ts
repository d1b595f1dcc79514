import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, type Config } from '../src/config.js'
import { buildApp, type App } from '../src/app.js'

/** Database folders made for this test file's apps, removed when the test process exits. */
const folders: string[] = []
process.once('exit', () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true })
})

/**
 * A fresh app on a fresh database file (unless `env.DATABASE_PATH` says otherwise), silent, without the web build.
 * A file rather than `:memory:`, so the mail watcher runs production's `PRAGMA data_version` check on a connection of
 * its own. Close it after the test: `afterEach(() => app.close())`. `adjust` sets what the environment cannot say as
 * briefly as a test needs (a retry window of seconds, say).
 */
export async function buildTestApp(env: Record<string, string> = {}, adjust: (config: Config) => Config = (c) => c): Promise<App> {
  const dir = mkdtempSync(join(tmpdir(), 'tempbox-api-test-'))
  folders.push(dir)
  const config = loadConfig({ DATABASE_PATH: join(dir, 'tempbox.sqlite'), LOG_LEVEL: 'silent', WEB_DIST_DIR: '', ...env })
  const app = await buildApp(adjust(config))
  await app.ready()
  return app
}

/**
 * Lets the event loop turn once. `inject()` runs a request in the same turn as the code before it, where over HTTP a
 * request sent after a commit always arrives in a later turn — which the mail watcher's once-per-turn check relies on.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
