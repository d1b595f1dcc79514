import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import SQLite from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { convertPageSize, createDb, insertMessage, migrateToLatest, PAGE_SIZE, resolveDatabasePath } from '../src/index.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A WAL database as SQLite makes it by default (4 KB pages), with a table of 300 rows of 2 KB. */
function fileWithDefaultPages(): string {
  const path = tempFile()
  mkdirSync(dirname(path), { recursive: true })
  const old = new SQLite(path)
  old.pragma('journal_mode = WAL')
  old.exec('CREATE TABLE earlier (id INTEGER PRIMARY KEY, body TEXT)')
  const insert = old.prepare('INSERT INTO earlier (body) VALUES (?)')
  for (let i = 0; i < 300; i++) insert.run(`row ${i} `.padEnd(2048, 'x'))
  old.close()
  return path
}

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tempbox-db-'))
  dirs.push(dir)
  return join(dir, 'nested', 'tempbox.sqlite')
}

describe('createDb', () => {
  it('opens a file in WAL mode with foreign keys, full sync and a busy timeout', async () => {
    const { db, sqlite } = createDb({ path: tempFile(), busyTimeoutMs: 1234 })
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(2)
    expect(sqlite.pragma('busy_timeout', { simple: true })).toBe(1234)
    await db.destroy()
  })

  it('creates a new file with 16 KB pages, and leaves the page size of an existing file alone', async () => {
    const fresh = createDb({ path: tempFile() })
    await migrateToLatest(fresh.db)
    expect(fresh.sqlite.pragma('page_size', { simple: true })).toBe(PAGE_SIZE)
    await fresh.db.destroy()

    // A file made before (SQLite's default 4 KB pages) keeps them: the page size of a WAL database is fixed.
    const path = fileWithDefaultPages()
    const reopened = createDb({ path })
    expect(reopened.sqlite.pragma('page_size', { simple: true })).toBe(4096)
    await migrateToLatest(reopened.db)
    expect((await reopened.db.introspection.getTables()).map((t) => t.name)).toEqual(expect.arrayContaining(['earlier', 'message']))
    await reopened.db.destroy()
  })

  it('creates the data folder, the file and its -wal and -shm readable by their owner only, even under a lax umask', async () => {
    const path = tempFile()
    const umask = process.umask(0o000)
    try {
      const { db } = createDb({ path })
      await migrateToLatest(db)
      await db.insertInto('contact_message').values({ name: 'n', email: 'e@example.com', subject: 's', message: 'm', submitted_at: 1 }).execute()
      const mode = (p: string) => statSync(p).mode & 0o777
      expect(mode(dirname(path))).toBe(0o700)
      expect(mode(path)).toBe(0o600)
      expect(existsSync(`${path}-wal`) && existsSync(`${path}-shm`)).toBe(true)
      expect(mode(`${path}-wal`)).toBe(0o600)
      expect(mode(`${path}-shm`)).toBe(0o600)
      await db.destroy()
    } finally {
      process.umask(umask)
    }
  })

  it('migrates to the latest schema, and migrating again is a no-op', async () => {
    const path = tempFile()
    const { db } = createDb({ path })
    await migrateToLatest(db)
    await migrateToLatest(db)
    const tables = (await db.introspection.getTables()).map((t) => t.name)
    expect(tables).toEqual(expect.arrayContaining(['inbox', 'message', 'attachment', 'user', 'contact_message', 'short_link']))
    await db.destroy()
  })

  it('deletes an inbox’s messages and attachments with it', async () => {
    const { db } = createDb({ path: ':memory:' })
    await migrateToLatest(db)
    const now = Date.now()
    const inbox = await db
      .insertInto('inbox')
      .values({ address: 'a@tempbox.test', local_part: 'a', domain: 'tempbox.test', user_id: null, created_at: now, expires_at: now + 1000 })
      .returning('id')
      .executeTakeFirstOrThrow()
    await insertMessage(db, [inbox.id], {
      content: { recipients: '[]', headers: '[]', text: 't', html: null, raw: Buffer.from('x') },
      listing: { from_name: '', from_address: 'x@y.z', subject: 's', sent_at: null, received_at: now, size: 1 },
      attachments: [{ position: 0, filename: 'f.txt', content_type: 'text/plain', size: 1, content_id: null, is_inline: 0, content: Buffer.from('x') }],
    })
    await db.deleteFrom('inbox').where('id', '=', inbox.id).execute()
    expect(await db.selectFrom('message').selectAll().execute()).toEqual([])
    expect(await db.selectFrom('attachment').selectAll().execute()).toEqual([])
    expect(await db.selectFrom('message_content').selectAll().execute()).toEqual([])
    await db.destroy()
  })

  it('rewrites a file with 4 KB pages into 16 KB pages, keeping every row, and refuses while another connection is open', () => {
    const path = fileWithDefaultPages()
    const other = createDb({ path }).sqlite
    const { sqlite } = createDb({ path })
    expect(() => convertPageSize(sqlite)).toThrow('the database is in use: stop the api and mail-ingest first')
    expect(sqlite.pragma('page_size', { simple: true })).toBe(4096)
    other.close()

    expect(convertPageSize(sqlite)).toEqual({ changed: true, from: 4096, to: PAGE_SIZE })
    expect(convertPageSize(sqlite)).toEqual({ changed: false, pageSize: PAGE_SIZE })
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal')
    const rows = sqlite.prepare('SELECT id, body FROM earlier ORDER BY id').all() as Array<{ id: number; body: string }>
    expect(rows).toHaveLength(300)
    expect(rows[299]).toEqual({ id: 300, body: 'row 299 '.padEnd(2048, 'x') })
    sqlite.close()
  })
})

describe('resolveDatabasePath', () => {
  it('defaults to data/tempbox.sqlite at the repository root and keeps absolute paths', () => {
    expect(resolveDatabasePath(undefined)).toMatch(/\/data\/tempbox\.sqlite$/)
    expect(resolveDatabasePath('/tmp/x.sqlite')).toBe('/tmp/x.sqlite')
    expect(resolveDatabasePath(':memory:')).toBe(':memory:')
  })

})
