import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { openStorage } from '@tempbox/db'
import { databaseUrl, migratedPostgresDatabase } from '@tempbox/db/testing'
import type { App } from '../src/app.js'
import { storageConfig } from '../src/config.js'
import { buildTestApp } from './helper.js'
import { twoNodes } from './two-nodes.js'
import { deliver, generate, incomingMessage } from './email-fixtures.js'
import { readEvents } from './sse-events.js'

/**
 * Two API nodes on one PostgreSQL (project `postgres` only): two apps, each with its own storage, caches and
 * listening connection, as two machines would run them. Mail is stored by a third storage (fixtures' `deliver`), as an
 * ingest node would. Nothing links the two apps but the database.
 */
const apps: App[] = []
const cleanups: (() => void | Promise<void>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
  for (const app of apps.splice(0)) await app.close()
  urls.clear()
})

const urls = new Map<App, string>()

async function openStream(app: App, address: string, lastEventId?: number) {
  let url = urls.get(app)
  if (!url) {
    url = await app.listen({ host: '127.0.0.1', port: 0 })
    urls.set(app, url)
  }
  const res = await fetch(`${url}/api/email/${address}/events`, { headers: lastEventId ? { 'Last-Event-ID': String(lastEventId) } : {} })
  expect(res.status).toBe(200)
  const stream = readEvents(res.body!)
  cleanups.push(stream.cancel)
  await expect.poll(() => stream.events.slice(0, 2).map((e) => e.event)).toEqual(['retry', 'ready'])
  return stream
}

const subjects = (stream: ReturnType<typeof readEvents>) => stream.events.filter((e) => e.event === 'message').map((e) => e.data.message.subject as string)
const listed = async (app: App, address: string) => {
  const res = await app.inject({ method: 'GET', url: `/api/email/${address}` })
  return res.statusCode === 200 ? (res.json() as { messages: { subject: string }[] }).messages.map((m) => m.subject) : res.statusCode
}

describe('API nodes on one PostgreSQL', () => {
  it('new mail stored by an ingest node reaches the SSE stream on one node and answers a wait on the other', async () => {
    const [a, b] = await twoNodes('nodes', apps)
    const address = await generate(a)
    const stream = await openStream(b, address)
    const waiting = a.inject({ method: 'GET', url: `/api/email/${address}/wait?timeout=20` })
    await expect.poll(() => a.mailWatcher.subscriberCount()).toBe(1)

    const id = await deliver(a, address, { subject: 'Your code', text: 'Use 552910 to sign in.' })
    await expect.poll(() => subjects(stream)).toEqual(['Your code'])
    expect(stream.events.at(-1)).toMatchObject({ id: String(id), data: { message: { id: String(id), verification: { codes: ['552910'] } } } })
    expect((await waiting).json()).toMatchObject({ timedOut: false, message: { id: String(id), subject: 'Your code' } })
  })

  it('a message deleted on one node leaves the other node’s listing and stream; a released address ends them', async () => {
    const [a, b] = await twoNodes('nodes', apps)
    const address = await generate(a)
    const first = await deliver(a, address, { subject: 'first' })
    await deliver(a, address, { subject: 'second' })
    // B has shown the inbox (a poll) and streams it.
    expect(await listed(b, address)).toEqual(['second', 'first'])
    const stream = await openStream(b, address)

    expect((await a.inject({ method: 'DELETE', url: `/api/email/${address}/messages/${first}` })).statusCode).toBe(204)
    await expect.poll(() => stream.events.filter((e) => e.event === 'deleted').map((e) => e.data)).toEqual([{ id: String(first) }])
    expect(await listed(b, address)).toEqual(['second'])

    expect((await a.inject({ method: 'DELETE', url: `/api/email/${address}` })).json()).toMatchObject({ success: true })
    await expect.poll(() => stream.events.at(-1)?.event).toBe('expired')
    await expect.poll(stream.state).toBe('ended')
    expect(await listed(b, address)).toBe(404)
  })

  it('a browser reconnecting to the other node with Last-Event-ID gets what arrived meanwhile, once', async () => {
    const [a, b] = await twoNodes('nodes', apps)
    const address = await generate(a)
    const onA = await openStream(a, address)
    await deliver(a, address, { subject: 'seen on A' })
    await expect.poll(() => subjects(onA)).toEqual(['seen on A'])
    const lastEventId = Number(onA.events.at(-1)!.id)
    await onA.cancel()

    await deliver(a, address, { subject: 'missed one' })
    await deliver(a, address, { subject: 'missed two' })
    const onB = await openStream(b, address, lastEventId)
    await deliver(a, address, { subject: 'live on B' })
    await expect.poll(() => subjects(onB)).toEqual(['missed one', 'missed two', 'live on B'])
    const ids = onB.events.filter((e) => e.event === 'message').map((e) => Number(e.id))
    expect(ids).toEqual([...ids].sort((x, y) => x - y))
    expect(ids[0]).toBeGreaterThan(lastEventId)
  })

  it('a node whose listening connection drops still shows the mail and deletions committed meanwhile', async () => {
    const [a, b] = await twoNodes('nodes', apps)
    const address = await generate(a)
    const released = await generate(a)
    await deliver(a, address, { subject: 'kept' })
    const doomed = await deliver(a, address, { subject: 'doomed' })
    const onAddress = await openStream(b, address)
    const onReleased = await openStream(b, released)

    // Every LISTENing session of this database is cut (B's among them), as a network failure or a server restart
    // would, and in the same transaction a message and an inbox are deleted. When it commits before they listen
    // again (each waits 100 ms before reconnecting) nobody hears it and B's new listening connection makes it re-read;
    // when it commits after, B hears it. Either way B must end up right. Then mail is stored while it may be away.
    const cut = await a.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ n: number }>`
        select count(*) filter (where pg_terminate_backend(pid, 5000))::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN%'`.execute(trx)
      await trx.deleteFrom('message').where('id', '=', doomed).execute()
      await trx.deleteFrom('inbox').where('address', '=', released).execute()
      return rows[0]!.n
    })
    expect(cut).toBe(2)
    await deliver(a, address, { subject: 'while away' })

    await expect.poll(() => subjects(onAddress)).toEqual(['while away'])
    await expect.poll(() => onReleased.events.at(-1)?.event).toBe('expired')
    expect(await listed(b, address)).toEqual(['while away', 'kept'])
    expect(await listed(b, released)).toBe(404)
  })

  it('a node that cannot listen for long reports not ready, and ready again once it listens', async () => {
    // "For long" is HEALTH_CHANGE_FEED_STALE_MS: one second here (5 s by default), still ten reconnect pauses long.
    const [a, b] = await twoNodes('nodes', apps, { HEALTH_CHANGE_FEED_STALE_MS: '1000' })
    const health = async () => (await b.inject({ method: 'GET', url: '/api/health' })).json() as { checks: { changeFeed: { ok: boolean; detail: string } } }
    expect((await health()).checks.changeFeed.ok).toBe(true)
    const database = (await sql<{ name: string }>`select current_database() as name`.execute(a.db)).rows[0]!.name
    // The server's maintenance database: a database cannot close its own doors.
    const admin = openStorage({ path: ':memory:', url: databaseUrl(a.config.databaseUrl!, 'postgres'), poolSize: 1 })
    const allowConnections = (allow: boolean) => sql`alter database ${sql.id(database)} allow_connections ${sql.raw(String(allow))}`.execute(admin.db)
    cleanups.push(async () => {
      await allowConnections(true)
      await admin.close()
    })
    // No new session may start (superusers included), then B's listening session is cut: B keeps answering from its
    // pool, but cannot LISTEN again.
    await allowConnections(false)
    const cut = await sql<{ n: number }>`
      select count(*) filter (where pg_terminate_backend(pid, 5000))::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN%'`.execute(a.db)
    expect(cut.rows[0]!.n).toBe(2)

    await expect.poll(async () => (await health()).checks.changeFeed, { interval: 250 }).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^Not hearing new mail for \d+\.\d s: the connection that listens to the database is down, reconnecting\.$/),
    })
    expect((await b.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503)

    await allowConnections(true)
    await expect.poll(async () => (await health()).checks.changeFeed.ok, { interval: 250 }).toBe(true)
  })

  it('mail that two ingest nodes commit out of id order reaches every stream', async () => {
    const [a, b] = await twoNodes('nodes', apps)
    const early = await generate(a)
    const late = await generate(a, undefined, '203.0.113.8')
    const onEarly = await openStream(b, early)
    const onLate = await openStream(b, late)
    const inboxId = async (address: string) => (await a.db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()).id
    const [nodeOne, nodeTwo] = [openStorage(storageConfig(a.config, { poolSize: 1 })), openStorage(storageConfig(a.config, { poolSize: 1 }))]
    cleanups.push(() => nodeOne.close(), () => nodeTwo.close())

    // Node one draws its message id, then waits before it can commit: its inbox has a webhook, and queueing the
    // delivery (a trigger of the message insert, so after the id is drawn) needs the webhook row this transaction holds.
    // Node two takes a higher id and commits first, so node B reads that one before the lower id exists for it.
    const webhook = await a.db
      .insertInto('webhook')
      .values({ inbox_id: await inboxId(late), url: 'http://127.0.0.1:9/hook', secret: 'whsec_test', created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow()
    let slowWrite: Promise<number[]> | undefined
    await a.db.transaction().execute(async (trx) => {
      await sql`select id from webhook where id = ${webhook.id} for update`.execute(trx)
      slowWrite = nodeOne.messageWriter()([incomingMessage([await inboxId(late)], [late], { subject: 'committed second' })])
      const blocked = sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`
      await expect.poll(async () => (await blocked.execute(a.db)).rows[0]!.n).toBe(1)
      await nodeTwo.messageWriter()([incomingMessage([await inboxId(early)], [early], { subject: 'committed first' })])
      await expect.poll(() => subjects(onEarly)).toEqual(['committed first'])
    })
    await slowWrite
    await expect.poll(() => subjects(onLate)).toEqual(['committed second'])
    const [second, first] = [Number(onLate.events.at(-1)!.id), Number(onEarly.events.at(-1)!.id)]
    expect(second).toBeLessThan(first)
  })

  it('a webhook delivery that commits below one already read is still made', async () => {
    const subjects: string[] = []
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        subjects.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message: { subject: string } }).message.subject)
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise<void>((resolve) => (receiver.closeAllConnections(), receiver.close(() => resolve()))))
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
    const app = await buildTestApp({ DATABASE_URL: await migratedPostgresDatabase('late-delivery'), JWT_SECRET: 'a shared secret of the whole service, 32+ chars', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' })
    apps.push(app)
    const [early, late] = [await generate(app), await generate(app, undefined, '203.0.113.8')]
    for (const address of [early, late]) {
      const res = await app.inject({ method: 'PUT', url: `/api/email/${address}/webhook`, payload: { url: hook } })
      expect(res.statusCode).toBe(201)
    }
    const inboxId = async (address: string) => (await app.db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()).id
    const [nodeOne, nodeTwo] = [openStorage(storageConfig(app.config, { poolSize: 1 })), openStorage(storageConfig(app.config, { poolSize: 1 }))]
    cleanups.push(() => nodeOne.close(), () => nodeTwo.close())

    // As above: node one's delivery row takes its id, then waits for the webhook row this transaction holds; node two's
    // delivery takes a higher id, commits, and is delivered first, so the loop has read past the lower id by then.
    let slowWrite: Promise<number[]> | undefined
    await app.db.transaction().execute(async (trx) => {
      await sql`select id from webhook where inbox_id = ${await inboxId(late)} for update`.execute(trx)
      slowWrite = nodeOne.messageWriter()([incomingMessage([await inboxId(late)], [late], { subject: 'committed second' })])
      const blocked = sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`
      await expect.poll(async () => (await blocked.execute(app.db)).rows[0]!.n).toBe(1)
      await nodeTwo.messageWriter()([incomingMessage([await inboxId(early)], [early], { subject: 'committed first' })])
      await expect.poll(() => subjects).toEqual(['committed first'])
    })
    await slowWrite
    await expect.poll(() => subjects).toEqual(['committed first', 'committed second'])
    // The one delivered second holds the lower id: it committed below what the loop had read.
    const log = () =>
      app.db.selectFrom('webhook_delivery as d').innerJoin('message as m', 'm.id', 'd.message_id').select(['m.subject', 'd.state']).orderBy('d.id').execute()
    await expect.poll(log).toEqual([
      { subject: 'committed second', state: 'delivered' },
      { subject: 'committed first', state: 'delivered' },
    ])
  })
})
