import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { createDb, type Db } from '../src/index.js'
import { prepared } from '../src/storage/sqlite/statement-cache.js'

const open: Db[] = []
afterEach(async () => {
  for (const db of open.splice(0)) await db.destroy()
})

function memoryDb(): Db {
  const { db } = createDb({ path: ':memory:' })
  open.push(db)
  return db
}

// Kysely's SQLite connection prepares each SQL text once (storage/sqlite/statement-cache.ts): what a query answers
// must not depend on whether its statement was prepared for it or kept from an earlier one.
describe('statements kept prepared on a SQLite connection', () => {
  it('answers a repeated query with the rows as they are now, each time with its own parameters', async () => {
    const db = memoryDb()
    await sql`CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db)
    const above = (id: number) => sql<{ id: number; body: string }>`SELECT id, body FROM note WHERE id > ${id} ORDER BY id`.execute(db)
    expect((await above(0)).rows).toEqual([])
    for (const body of ['one', 'two', 'three']) await sql`INSERT INTO note (body) VALUES (${body})`.execute(db)
    expect((await above(0)).rows.map((r) => r.body)).toEqual(['one', 'two', 'three'])
    expect((await above(2)).rows.map((r) => r.body)).toEqual(['three'])
  })

  it('runs a query again in full after a stream of it was left after its first row', async () => {
    const db = memoryDb()
    await sql`CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db)
    for (const body of ['a', 'b', 'c']) await sql`INSERT INTO note (body) VALUES (${body})`.execute(db)
    const query = () => db.selectFrom('note' as never).select(sql<string>`body`.as('body')).orderBy(sql`id`)
    const streamed: string[] = []
    for await (const row of query().stream()) {
      streamed.push((row as { body: string }).body)
      break
    }
    expect(streamed).toEqual(['a'])
    expect((await query().execute()).map((r) => (r as { body: string }).body)).toEqual(['a', 'b', 'c'])
  })

  it('reads a column added after the statement was first run', async () => {
    const db = memoryDb()
    await sql`CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db)
    await sql`INSERT INTO note (body) VALUES ('first')`.execute(db)
    const all = () => sql<Record<string, unknown>>`SELECT * FROM note`.execute(db)
    expect((await all()).rows).toEqual([{ id: 1, body: 'first' }])
    await sql`ALTER TABLE note ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0`.execute(db)
    expect((await all()).rows).toEqual([{ id: 1, body: 'first', pinned: 0 }])
  })
})

// `prepared` on a raw connection, as the search indexer calls it: one statement per text and connection, never one
// that is still being read.
describe('statements kept prepared on a raw SQLite connection', () => {
  it('gives a text its one statement per connection, a fresh one while that one is iterated, and current rows each time', () => {
    const main = new SQLite(':memory:')
    const other = new SQLite(':memory:')
    try {
      for (const db of [main, other]) db.exec('CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)')
      const text = 'SELECT body FROM note WHERE id > ? ORDER BY id'
      const first = prepared(main, text)
      expect(prepared(main, text)).toBe(first)
      expect(prepared(other, text)).not.toBe(first)
      main.exec(`INSERT INTO note (body) VALUES ('a'), ('b')`)
      const seen: string[] = []
      for (const row of first.iterate(0) as IterableIterator<{ body: string }>) {
        // Asked again while `first` is being read: another statement, which reads the rows whole.
        const during = prepared(main, text)
        expect(during).not.toBe(first)
        expect(during.all(0)).toEqual([{ body: 'a' }, { body: 'b' }])
        seen.push(row.body)
      }
      expect(seen).toEqual(['a', 'b'])
      expect(prepared(main, text)).toBe(first)
      expect(prepared(main, text).all(1)).toEqual([{ body: 'b' }])
    } finally {
      main.close()
      other.close()
    }
  })
})
