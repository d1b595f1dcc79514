import { describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'

describe('mail-ingest configuration', () => {
  it('refuses an in-memory database: mail stored there could never be read by the api', () => {
    expect(() => loadConfig({ DATABASE_PATH: ':memory:' })).toThrow('DATABASE_PATH must be the database file the api reads (got ":memory:")')
    expect(loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite' }).databasePath).toBe('/tmp/tempbox.sqlite')
  })

  it('refuses DATABASE_URL=postgres://… rather than acknowledge mail into a file replicas on PostgreSQL would not read', () => {
    expect(() => loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite', DATABASE_URL: 'postgres://tempbox@db:5432/tempbox' })).toThrow(
      'DATABASE_URL names a PostgreSQL server, which the api and mail-ingest do not run on yet',
    )
    expect(loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite', DATABASE_URL: '' }).databasePath).toBe('/tmp/tempbox.sqlite')
  })
})
