import { describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'

describe('the api and DATABASE_URL', () => {
  it('refuses a PostgreSQL URL it cannot serve yet, saying what to do, and starts on the SQLite file without one', () => {
    expect(() => loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite', DATABASE_URL: 'postgresql://tempbox@db/tempbox' })).toThrow(
      /DATABASE_URL names a PostgreSQL server, which the api and mail-ingest do not run on yet .*unset DATABASE_URL to use the SQLite file at DATABASE_PATH/,
    )
    expect(loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite' }).databasePath).toBe('/tmp/tempbox.sqlite')
  })
})
