import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { freshPostgresDatabase } from '../src/testing/index.js'

describe('the test PostgreSQL', () => {
  it('is a real server on loopback, durable, and gives each caller a database of its own', async () => {
    const a = await freshPostgresDatabase()
    const b = await freshPostgresDatabase()
    expect(new URL(a).hostname).toBe('127.0.0.1')
    expect(new URL(a).port).not.toBe('5432')
    expect(a).not.toBe(b)
    const client = new pg.Client({ connectionString: a })
    await client.connect()
    try {
      const { rows } = await client.query<{ version: string; fsync: string; db: string }>(
        "SELECT version(), current_setting('fsync') AS fsync, current_database() AS db",
      )
      expect(rows[0]!.version).toMatch(/^PostgreSQL \d+/)
      expect(rows[0]!.fsync).toBe('on')
      expect(rows[0]!.db).toBe(new URL(a).pathname.slice(1))
    } finally {
      await client.end()
    }
  })
})
