import { migratedPostgresDatabase } from '@tempbox/db/testing'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'

/**
 * Two API nodes on one new PostgreSQL database (named after `name`): two apps, each with its own storage, caches and
 * listening connection, sharing nothing but the database and the service's secret, as two machines would run them.
 * Both are added to `apps`, which the caller closes after the test.
 */
export async function twoNodes(name: string, apps: App[], extraEnv: Record<string, string> = {}): Promise<[App, App]> {
  const env = { DATABASE_URL: await migratedPostgresDatabase(name), JWT_SECRET: 'a shared secret of the whole service, 32+ chars', ...extraEnv }
  const a = await buildTestApp(env)
  apps.push(a)
  const b = await buildTestApp(env)
  apps.push(b)
  return [a, b]
}
