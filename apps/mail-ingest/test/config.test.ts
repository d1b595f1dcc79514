import { describe, expect, it } from 'vitest'
import { loadConfig, storageConfig } from '../src/config.js'

describe('mail-ingest configuration', () => {
  it('refuses an in-memory database: mail stored there could never be read by the api', () => {
    expect(() => loadConfig({ DATABASE_PATH: ':memory:' })).toThrow('DATABASE_PATH must be the database file the api reads (got ":memory:")')
    expect(loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite' }).databasePath).toBe('/tmp/tempbox.sqlite')
  })

  it('stores to PostgreSQL when DATABASE_URL names it, and to the SQLite file at DATABASE_PATH otherwise', () => {
    const onPostgres = loadConfig({ DATABASE_PATH: ':memory:', DATABASE_URL: ' postgres://tempbox@db:5432/tempbox ' })
    expect(onPostgres.databaseUrl).toBe('postgres://tempbox@db:5432/tempbox')
    expect(storageConfig(onPostgres, { poolSize: 2 })).toEqual({ path: ':memory:', url: 'postgres://tempbox@db:5432/tempbox', poolSize: 2 })
    const onFile = loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite', DATABASE_URL: '' })
    expect([onFile.databasePath, onFile.databaseUrl]).toEqual(['/tmp/tempbox.sqlite', null])
    expect(storageConfig(onFile)).toEqual({ path: '/tmp/tempbox.sqlite' })
  })
})
