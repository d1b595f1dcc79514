import { Migrator, sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { createDb, createPostgresDb, engineOf, insertMessage, isPostgresUrl, lastHeartbeat, migrateToLatest, openDb, writeHeartbeat, type Db } from '../src/index.js'
import { migrationProviderFor } from '../src/migrations/index.js'
import { ENGINES, freshPostgresDatabase, freshTestDb } from '../src/testing/index.js'

const open: Db[] = []
afterEach(async () => {
  for (const db of open.splice(0)) await db.destroy()
})

describe('engine selection', () => {
  it('takes PostgreSQL for a postgres:// DATABASE_URL and the SQLite file otherwise', async () => {
    const pg = openDb({ url: await freshPostgresDatabase(), path: ':memory:' })
    const lite = openDb({ url: undefined, path: ':memory:' })
    open.push(pg.db, lite.db)
    expect([pg.engine, engineOf(pg.db), pg.sqlite]).toEqual(['postgres', 'postgres', null])
    expect([lite.engine, engineOf(lite.db), lite.sqlite === null]).toEqual(['sqlite', 'sqlite', false])
    expect((await pg.db.selectNoFrom(sql<string>`current_setting('server_version_num')`.as('v')).executeTakeFirstOrThrow()).v).toMatch(/^\d{6}$/)
  })

  it('reads only postgres:// and postgresql:// as PostgreSQL', () => {
    expect(['postgres://u@h/d', 'postgresql://h/d', ' POSTGRES://h/d'].every(isPostgresUrl)).toBe(true)
    expect([undefined, '', 'data/tempbox.sqlite', 'mysql://h/d', 'file:postgres://x'].some(isPostgresUrl)).toBe(false)
  })
})

describe.each(ENGINES)('on %s', (engine) => {
  async function db(): Promise<Db> {
    const fresh = await freshTestDb(engine)
    open.push(fresh)
    return fresh
  }

  async function addInbox(d: Db, name: string, createdAt: number): Promise<number> {
    const row = await d
      .insertInto('inbox')
      .values({ address: `${name}@tempbox.test`, local_part: name, domain: 'tempbox.test', user_id: null, created_at: createdAt, expires_at: createdAt + 86_400_000 })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }

  it('gives ids, epoch milliseconds and counts back as numbers', async () => {
    const d = await db()
    const at = Date.UTC(2026, 10, 24, 12, 0, 0, 123)
    const id = await addInbox(d, 'n', at)
    const row = await d.selectFrom('inbox').select(['id', 'created_at', 'expires_at', 'message_count']).executeTakeFirstOrThrow()
    expect(row).toEqual({ id, created_at: at, expires_at: at + 86_400_000, message_count: 0 })
    expect(typeof id).toBe('number')
    const totals = await d
      .selectFrom('inbox')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('expires_at').as('sum')])
      .executeTakeFirstOrThrow()
    expect(totals).toEqual({ n: 1, sum: at + 86_400_000 })
  })

  it('counts addresses per UTC day, whatever the time of day', async () => {
    const d = await db()
    await addInbox(d, 'a', Date.UTC(2026, 10, 23, 23, 59, 59, 999))
    await addInbox(d, 'b', Date.UTC(2026, 10, 24, 0, 0, 0, 0))
    await addInbox(d, 'c', Date.UTC(2026, 10, 24, 18, 30))
    expect(await d.selectFrom('inbox_created_daily').selectAll().orderBy('day').execute()).toEqual([
      { day: '2026-11-23', count: 1 },
      { day: '2026-11-24', count: 2 },
    ])
  })

  it('queues a webhook delivery with the message and keeps the pending counters', async () => {
    const d = await db()
    const now = Date.now()
    const inbox = await addInbox(d, 'w', now)
    const webhook = await d
      .insertInto('webhook')
      .values({ inbox_id: inbox, url: 'https://example.com/hook', secret: 's', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    const [messageId] = await insertMessage(d, [inbox], {
      content: { recipients: '[]', headers: '[]', text: 'hi', html: null, raw: Buffer.from('Subject: s\r\n\r\nhi') },
      listing: { from_name: '', from_address: 'x@example.com', subject: 's', sent_at: null, received_at: now, size: 17 },
    })
    const delivery = await d.selectFrom('webhook_delivery').selectAll().executeTakeFirstOrThrow()
    expect(delivery).toMatchObject({ webhook_id: webhook.id, message_id: messageId, state: 'pending', attempts: 0, created_at: now })
    expect(delivery.delivery_id).toMatch(/^[0-9a-f]{32}$/)
    const pending = async () => [
      (await d.selectFrom('webhook').select('pending').executeTakeFirstOrThrow()).pending,
      (await d.selectFrom('webhook_queue').select('pending').executeTakeFirstOrThrow()).pending,
    ]
    expect(await pending()).toEqual([1, 1])
    await d.updateTable('webhook_delivery').set({ state: 'delivered' }).where('id', '=', delivery.id).execute()
    expect(await pending()).toEqual([0, 0])
  })

  it('keeps each inbox’s unread count through stores, reads and deletions', async () => {
    const d = await db()
    const now = Date.now()
    const [a, b] = [await addInbox(d, 'ua', now), await addInbox(d, 'ub', now)]
    const [first] = await insertMessage(d, [a], {
      content: { recipients: '[]', headers: '[]', text: 'hi', html: null, raw: Buffer.from('Subject: s\r\n\r\nhi') },
      listing: { from_name: '', from_address: 'x@example.com', subject: 's', sent_at: null, received_at: now, size: 17 },
    })
    const { message_content_id } = await d.selectFrom('message').select('message_content_id').where('id', '=', first!).executeTakeFirstOrThrow()
    const row = (inbox_id: number, read_at: number | null) => ({ inbox_id, message_content_id, from_name: '', from_address: 'x@example.com', subject: 's', sent_at: null, received_at: now, size: 10, read_at })
    // One statement for two inboxes, one row already read: PostgreSQL's trigger runs once for the statement.
    const rows = await d.insertInto('message').values([row(a, null), row(b, null), row(b, null), row(b, now)]).returning('id').execute()
    const [a2, b1, , b3] = rows.map((r) => r.id)
    const counts = async () => (await d.selectFrom('inbox').select(['message_count', 'unread_count']).orderBy('id').execute())
      .map((r) => [Number(r.message_count), Number(r.unread_count)])
    expect(await counts()).toEqual([[2, 2], [3, 2]])
    await d.updateTable('message').set({ read_at: now }).where('id', 'in', [first!, b1!]).execute()
    expect(await counts()).toEqual([[2, 1], [3, 1]])
    // Read again changes nothing; marked unread, it counts again.
    await d.updateTable('message').set({ read_at: now + 1 }).where('id', '=', first!).execute()
    await d.updateTable('message').set({ read_at: null }).where('id', '=', b3!).execute()
    expect(await counts()).toEqual([[2, 1], [3, 2]])
    await d.deleteFrom('message').where('id', 'in', [a2!, b1!]).execute()
    expect(await counts()).toEqual([[1, 0], [2, 2]])
  })

  it('counts the unread mail stored before the counter existed', async () => {
    const d = engine === 'postgres' ? createPostgresDb({ url: await freshPostgresDatabase() }) : createDb({ path: ':memory:' }).db
    open.push(d)
    const migrator = new Migrator({ db: d, provider: migrationProviderFor(engine), allowUnorderedMigrations: true })
    expect((await migrator.migrateTo('2026_11_28_000801_derive_stored_views')).error).toBeUndefined()
    const now = Date.now()
    const [a, b] = [await addInbox(d, 'before-a', now), await addInbox(d, 'before-b', now)]
    const ids = await insertMessage(d, [a, b], {
      content: { recipients: '[]', headers: '[]', text: 'hi', html: null, raw: Buffer.from('Subject: s\r\n\r\nhi') },
      listing: { from_name: '', from_address: 'x@example.com', subject: 's', sent_at: null, received_at: now, size: 17 },
    })
    await d.updateTable('message').set({ read_at: now }).where('id', '=', ids[1]!).execute()
    await migrateToLatest(d)
    const rows = await d.selectFrom('inbox').select('unread_count').orderBy('id').execute()
    expect(rows.map((r) => Number(r.unread_count))).toEqual([1, 0])
  })

  it('overwrites a service heartbeat in place', async () => {
    const d = await db()
    await writeHeartbeat(d, 'mail-ingest', 1_000, 100)
    await writeHeartbeat(d, 'mail-ingest', 2_000, 100)
    expect(await lastHeartbeat(d, 'mail-ingest')).toEqual({ beatAt: 2_000, staleAt: 2_300 })
    expect(await lastHeartbeat(d, 'other')).toBeNull()
  })

  it('refuses what the CHECK constraints refuse', async () => {
    const d = await db()
    const inbox = await addInbox(d, 'x', Date.now())
    await expect(d.updateTable('inbox').set({ burn: 'never' as 'read' }).where('id', '=', inbox).execute()).rejects.toThrow(/check/i)
  })
})
