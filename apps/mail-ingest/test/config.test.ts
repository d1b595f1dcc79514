import { describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'

describe('mail-ingest configuration', () => {
  it('refuses an in-memory database: mail stored there could never be read by the api', () => {
    expect(() => loadConfig({ DATABASE_PATH: ':memory:' })).toThrow('DATABASE_PATH must be the database file the api reads (got ":memory:")')
    expect(loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite' }).databasePath).toBe('/tmp/tempbox.sqlite')
  })
})
