import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { loadConfig, storageConfig } from '../src/config.js'
import { generate } from './email-fixtures.js'
import { buildTestApp, onPostgres } from './helper.js'

const SECRET = 'every node of the service shares this one'

describe('the api and DATABASE_URL', () => {
  it('runs on PostgreSQL for a postgres:// URL (pool of DATABASE_POOL_SIZE), on the SQLite file without one', () => {
    const onPostgres = loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite', DATABASE_URL: ' postgresql://tempbox@db/tempbox ', DATABASE_POOL_SIZE: '4', JWT_SECRET: SECRET })
    expect(storageConfig(onPostgres)).toEqual({ path: '/tmp/tempbox.sqlite', url: 'postgresql://tempbox@db/tempbox', poolSize: 4 })
    expect(storageConfig(loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite', DATABASE_URL: '' }))).toMatchObject({ path: '/tmp/tempbox.sqlite', url: undefined })
  })

  it('refuses a DATABASE_URL that names no PostgreSQL server rather than quietly use the SQLite file', () => {
    expect(() => loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite', DATABASE_URL: 'mysql://tempbox@db/tempbox' })).toThrow(
      'DATABASE_URL must be a postgres:// or postgresql:// URL (or unset, for the SQLite file at DATABASE_PATH)',
    )
    expect(() => loadConfig({ DATABASE_URL: 'postgres://tempbox@db/tempbox', DATABASE_POOL_SIZE: '0', JWT_SECRET: SECRET })).toThrow('DATABASE_POOL_SIZE must be an integer ≥ 1 (got "0")')
    // The leading node keeps one connection for its lock: a pool of one would leave it none for queries.
    expect(() => loadConfig({ DATABASE_URL: 'postgres://tempbox@db/tempbox', DATABASE_POOL_SIZE: '1', JWT_SECRET: SECRET })).toThrow(
      "DATABASE_POOL_SIZE must be at least 2 on PostgreSQL: one connection holds the lock of the service's one-per-service jobs (got 1)",
    )
    expect(loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite', DATABASE_POOL_SIZE: '1' }).databasePoolSize).toBe(1)
  })

  it('refuses to start on PostgreSQL without JWT_SECRET rather than make up a secret no other node shares', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tempbox-config-'))
    try {
      expect(() => loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://tempbox@db/tempbox' })).toThrow(
        'JWT_SECRET must be set when DATABASE_URL is set: every api node must sign tokens and key the shared limits with the same secret',
      )
      // Nothing was written for a later start to pick up as if it were the service's secret.
      expect(readdirSync(dataDir)).toEqual([])
      // Every node derives the same setup key from the shared secret, so the key one node shows works on the next.
      const nodeKey = () => loadConfig({ DATABASE_URL: 'postgres://tempbox@db/tempbox', JWT_SECRET: SECRET }).adminSetupKey
      expect(nodeKey()).toBe(nodeKey())
      expect(nodeKey()).not.toBe(loadConfig({ DATABASE_URL: 'postgres://tempbox@db/tempbox', JWT_SECRET: `${SECRET}, but another service's` }).adminSetupKey)
      // The SQLite file's one host keeps making its own, as `pnpm start` on a fresh clone needs.
      expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toHaveLength(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim().length)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('the api on the engine DATABASE_URL names', () => {
  let app: App | undefined
  afterEach(() => app?.close())

  it(`answers on ${onPostgres ? 'PostgreSQL' : 'the SQLite file'}: the database checks out, addresses are made and listed`, async () => {
    app = await buildTestApp()
    expect(app.storage.engine).toBe(onPostgres ? 'postgres' : 'sqlite')
    expect(app.config.databaseUrl !== undefined).toBe(onPostgres)
    const health = await app.inject({ method: 'GET', url: '/api/health' })
    expect(health.json()).toMatchObject({ checks: { database: { ok: true } } })
    const address = await generate(app)
    const inbox = await app.inject({ method: 'GET', url: `/api/email/${address}` })
    expect(inbox.json()).toEqual({ messages: [], total: 0, unread: 0, nextBefore: null })
  })
})
