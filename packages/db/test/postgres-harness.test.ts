import pg from 'pg'
import { describe, expect, inject, it } from 'vitest'
import { createTestDatabase, freshPostgresDatabase, startPostgres } from '../src/testing/index.js'
import { dropTestDatabases } from '../src/testing/postgres.js'

describe('the test PostgreSQL', () => {
  it('is a real server on loopback, without flushes to disk, and gives each caller a database of its own', async () => {
    const a = await freshPostgresDatabase()
    const b = await freshPostgresDatabase()
    expect(new URL(a).hostname).toBe('127.0.0.1')
    expect(new URL(a).port).not.toBe('5432')
    expect(a).not.toBe(b)
    const client = new pg.Client({ connectionString: a })
    await client.connect()
    try {
      const { rows } = await client.query<{ version: string; fsync: string; synchronous_commit: string; db: string }>(
        "SELECT version(), current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS synchronous_commit, current_database() AS db",
      )
      expect(rows[0]!.version).toMatch(/^PostgreSQL \d+/)
      // The suites' server has no power loss to survive; commits still wait for their WAL record (what storage tests see).
      expect(rows[0]!.fsync).toBe('off')
      expect(rows[0]!.synchronous_commit).toBe('on')
      expect(rows[0]!.db).toBe(new URL(a).pathname.slice(1))
    } finally {
      await client.end()
    }
  })

  it('drops a finished file\'s databases, and keeps one something is still connected to for a later turn', async () => {
    const serverUrl = inject('postgresUrl')
    const [idle, held] = [await createTestDatabase(serverUrl, 'idle'), await createTestDatabase(serverUrl, 'held')]
    const name = (url: string) => new URL(url).pathname.slice(1)
    const holder = new pg.Client({ connectionString: held })
    await holder.connect()
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    const existing = async () => (await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname = ANY($1) ORDER BY datname', [[name(idle), name(held)]])).rows.map((r) => r.datname)
    try {
      expect(await dropTestDatabases(serverUrl, [name(idle), name(held)])).toEqual([name(held)])
      expect(await existing()).toEqual([name(held)])
      await holder.end()
      expect(await dropTestDatabases(serverUrl, [name(held)])).toEqual([])
      expect(await existing()).toEqual([])
    } finally {
      await holder.end().catch(() => undefined)
      await admin.end()
    }
  })

  it('is durable like production unless told otherwise, as the benchmarks start it', async () => {
    const server = await startPostgres()
    const client = new pg.Client({ connectionString: server.url })
    try {
      await client.connect()
      const { rows } = await client.query<{ fsync: string; full_page_writes: string }>(
        "SELECT current_setting('fsync') AS fsync, current_setting('full_page_writes') AS full_page_writes",
      )
      expect(rows[0]).toEqual({ fsync: 'on', full_page_writes: 'on' })
    } finally {
      await client.end()
      await server.stop()
    }
  })
})
