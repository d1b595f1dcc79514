import { randomBytes } from 'node:crypto'
import { listDeliveries, type Db, type Storage } from '@tempbox/db'
import { ENGINES, freshPostgresDatabase, type TestEngine } from '@tempbox/db/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { RefusalReason } from '../src/metrics.js'
import { metricValue, refusalCount } from './refusals.js'
import { openTestDatabase, startIngest, type TestDatabase, type TestIngest } from './test-ingest.js'
import { rawSession } from '../../../tests/support/smtp-session.js'

const DOMAIN = 'tempbox.test'
/** The engine under test's database: a database of its own on the run's PostgreSQL, or the SQLite file. */
let database: TestDatabase
let db: Db
let storage: Storage
const servers: TestIngest[] = []

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

/**
 * A real server on its own connection to the test's file, with these settings. The limits are the SMTP thread's and
 * the writer's, the same with parse workers or without (smtp-server.test.ts covers the workers): without them and the
 * sender check, a server starts without loading five threads' code, which took most of this file's time.
 */
async function startServer(env: Record<string, string>): Promise<number> {
  const server = await startIngest(database, { MAIL_DOMAINS: DOMAIN, SMTP_INBOX_CACHE_MS: '0', MAIL_AUTH: 'off', SMTP_PARSE_WORKERS: '0', ...env }, { ownConnection: true })
  servers.push(server)
  return server.port
}

/** The test's server's count of refusals for one reason. */
const refusals = (reason: RefusalReason) => refusalCount(servers[0]!.ingest, reason)

let inboxes = 0
async function createInbox(): Promise<string> {
  const localPart = `box${++inboxes}`
  const address = `${localPart}@${DOMAIN}`
  await db.insertInto('inbox').values({ address, local_part: localPart, domain: DOMAIN, created_at: Date.now(), expires_at: Date.now() + 3_600_000 }).execute()
  return address
}

const storedIn = async (address: string) =>
  (await db.selectFrom('message').innerJoin('inbox', 'inbox.id', 'message.inbox_id').select('message.subject').where('inbox.address', '=', address).execute()).map((r) => r.subject)

/** A greeted session that has said EHLO and MAIL FROM. */
async function session(port: number) {
  const s = rawSession(port)
  expect(await s.reply()).toMatch(/^220 /)
  expect(await s.command('EHLO client.test')).toMatch(/^250 /)
  expect(await s.command('MAIL FROM:<sender@example.test>')).toMatch(/^250 /)
  return s
}

/** Sends one message over a session that has its recipients; the reply to the final dot. */
async function data(s: Awaited<ReturnType<typeof session>>, subject: string, body = 'hello'): Promise<string> {
  expect(await s.command('DATA')).toMatch(/^354 /)
  return s.command(`Subject: ${subject}\r\n\r\n${body}\r\n.`)
}

/** The test file's database on `engine`, migrated. */
async function openDatabase(engine: TestEngine): Promise<void> {
  database = await openTestDatabase('mail-ingest-fair', engine === 'postgres' ? await freshPostgresDatabase('fair') : undefined)
  ;({ db, storage } = database)
}

const closeDatabase = () => database.close()

describe.each(ENGINES)('on %s', (engine) => {
  beforeAll(() => openDatabase(engine))
  afterAll(closeDatabase)

  describe('per-client sessions', () => {
    it('refuses a client past SMTP_MAX_CLIENTS_PER_IP with 421 4.7.0 and closes, and takes it again once one ends', async () => {
      const port = await startServer({ SMTP_MAX_CLIENTS_PER_IP: '2' })
      const [first, second] = [rawSession(port), rawSession(port)]
      expect(await first.reply()).toMatch(/^220 /)
      expect(await second.reply()).toMatch(/^220 /)
      const third = rawSession(port)
      expect(await third.reply()).toMatch(/^421 4\.7\.0 Too many connections from your network/)
      await third.closed
      // Counted for operators like refusals at RCPT and DATA, though no SMTP command was ever read.
      expect(await refusals('too_many_connections')).toBe(1)
      first.socket.end('QUIT\r\n')
      await first.closed
      await expect.poll(async () => {
        const again = rawSession(port)
        const reply = await again.reply()
        again.socket.destroy()
        return reply.slice(0, 4)
      }).toBe('220 ')
      second.socket.destroy()
    })

    it('cuts off a session naming more unknown recipients than SMTP_MAX_UNKNOWN_RECIPIENTS with 421', async () => {
      const port = await startServer({ SMTP_MAX_UNKNOWN_RECIPIENTS: '2' })
      const known = await createInbox()
      const s = await session(port)
      expect(await s.command(`RCPT TO:<nobody1@${DOMAIN}>`)).toMatch(/^550 5\.1\.1 /)
      expect(await s.command(`RCPT TO:<${known}>`)).toMatch(/^250 /)
      expect(await s.command('RCPT TO:<someone@elsewhere.test>')).toMatch(/^550 5\.7\.1 /)
      expect(await s.command(`RCPT TO:<nobody2@${DOMAIN}>`)).toMatch(/^421 4\.7\.0 Too many unknown recipients/)
      await s.closed
      expect(await storedIn(known)).toEqual([])
    })
  })

  describe('memory held by messages in flight', () => {
    it('answers new DATA with 451 4.3.1 while SMTP_MAX_INFLIGHT_BYTES are held, and takes mail again once they are not', async () => {
      const port = await startServer({ SMTP_MAX_INFLIGHT_BYTES: String(32 * 1024) })
      const to = await createInbox()
      const slow = await session(port)
      expect(await slow.command(`RCPT TO:<${to}>`)).toMatch(/^250 /)
      expect(await slow.command('DATA')).toMatch(/^354 /)
      // A slow sender holding nearly all the budget, its message not finished.
      slow.socket.write(`Subject: slow\r\n\r\n${`${'x'.repeat(76)}\r\n`.repeat(380)}`)
      const body = `${'w'.repeat(76)}\r\n`.repeat(60)
      // Held once its bytes are read (smtp-server keeps the last few back while it looks for the final dot).
      const inflight = () => metricValue(servers[0]!.ingest, 'tempbox_ingest_inflight_bytes')
      await vi.waitFor(async () => expect(await inflight()).toBeGreaterThan(32 * 1024 - body.length), { timeout: 15_000 })
      const other = await session(port)
      expect(await other.command(`RCPT TO:<${to}>`)).toMatch(/^250 /)
      expect(await data(other, 'meanwhile', body)).toBe('451 4.3.1 Too much mail in progress, please try again later')
      expect(await slow.command('.')).toMatch(/^250 /)
      // The budget is free again: the retry is taken.
      expect(await other.command('MAIL FROM:<sender@example.test>')).toMatch(/^250 /)
      expect(await other.command(`RCPT TO:<${to}>`)).toMatch(/^250 /)
      expect(await data(other, 'meanwhile', body)).toMatch(/^250 /)
      expect((await storedIn(to)).sort()).toEqual(['meanwhile', 'slow'])
    })
  })

  describe('per-inbox quotas', () => {
    it('refuses a recipient whose inbox holds MAX_MESSAGES_PER_INBOX with 452 4.2.2, and takes it again after a delete', async () => {
      const port = await startServer({ MAX_MESSAGES_PER_INBOX: '2' })
      const to = await createInbox()
      const s = await session(port)
      for (const subject of ['one', 'two']) {
        expect(await s.command(`RCPT TO:<${to}>`)).toMatch(/^250 /)
        expect(await data(s, subject)).toMatch(/^250 /)
        expect(await s.command('MAIL FROM:<sender@example.test>')).toMatch(/^250 /)
      }
      expect(await s.command(`RCPT TO:<${to}>`)).toBe('452 4.2.2 Mailbox full, try again later')
      expect(await refusals('mailbox_full')).toBe(1)
      await db.deleteFrom('message').where('subject', '=', 'one').execute()
      expect(await s.command(`RCPT TO:<${to}>`)).toMatch(/^250 /)
      expect(await data(s, 'three')).toMatch(/^250 /)
      expect((await storedIn(to)).sort()).toEqual(['three', 'two'])
    })

    it('answers 552 5.2.2 at DATA when the message would take its inbox past MAX_INBOX_BYTES, 452 when only some are full', async () => {
      const port = await startServer({ MAX_INBOX_BYTES: '4096' })
      const [nearlyFull, empty] = [await createInbox(), await createInbox()]
      const s = await session(port)
      const body = 'y'.repeat(3000)
      expect(await s.command(`RCPT TO:<${nearlyFull}>`)).toMatch(/^250 /)
      expect(await data(s, 'first', body)).toMatch(/^250 /)
      expect(await s.command('MAIL FROM:<sender@example.test>')).toMatch(/^250 /)
      // Under its quota at RCPT; the message's size is known only at DATA.
      expect(await s.command(`RCPT TO:<${nearlyFull}>`)).toMatch(/^250 /)
      expect(await data(s, 'too much', body)).toBe('552 5.2.2 Mailbox full')
      expect(await s.command('MAIL FROM:<sender@example.test>')).toMatch(/^250 /)
      expect(await s.command(`RCPT TO:<${nearlyFull}>`)).toMatch(/^250 /)
      expect(await s.command(`RCPT TO:<${empty}>`)).toMatch(/^250 /)
      expect(await data(s, 'for both', body)).toBe('452 4.2.2 Mailbox full for some recipients, try again later')
      // Nothing acknowledged was dropped, nothing refused was stored.
      expect(await storedIn(nearlyFull)).toEqual(['first'])
      expect(await storedIn(empty)).toEqual([])
      // A client that declares the size is refused at RCPT instead, for that inbox only.
      expect(await s.command(`MAIL FROM:<sender@example.test> SIZE=${body.length + 20}`)).toMatch(/^250 /)
      expect(await s.command(`RCPT TO:<${nearlyFull}>`)).toBe('452 4.2.2 Mailbox full, try again later')
      expect(await s.command(`RCPT TO:<${empty}>`)).toMatch(/^250 /)
      expect(await data(s, 'declared', body)).toMatch(/^250 /)
      expect(await storedIn(empty)).toEqual(['declared'])
    })
  })

  describe('the whole store', () => {
    it('answers 452 4.3.1 at DATA rather than grow the database past MAX_DATABASE_BYTES, logged, then at RCPT; reads go on', async () => {
      const to = await createInbox()
      // Room for the small message with a margin (its first commit grows a fresh PostgreSQL database by about 72 KB:
      // new pages for each table and index it touches), and far less than the big one needs.
      const cap = (await storage.databaseBytes()) + 512 * 1024
      const port = await startServer({ MAX_DATABASE_BYTES: String(cap), MAX_MESSAGE_BYTES: String(2 * 1024 * 1024) })
      const s = await session(port)
      expect(await s.command(`RCPT TO:<${to}>`)).toMatch(/^250 /)
      expect(await data(s, 'small')).toMatch(/^250 /)
      expect(await s.command('MAIL FROM:<sender@example.test>')).toMatch(/^250 /)
      expect(await s.command(`RCPT TO:<${to}>`)).toMatch(/^250 /)
      const big = `${'z'.repeat(76)}\r\n`.repeat(16_000) // 1.25 MB
      expect(await data(s, 'big', big)).toBe('452 4.3.1 Insufficient system storage, try again later')
      expect(await storedIn(to)).toEqual(['small'])
      // The inbox's delivery log (newest first) tells its owner the store was full, not the inbox.
      const { id } = await db.selectFrom('inbox').select('id').where('address', '=', to).executeTakeFirstOrThrow()
      await servers[0]!.ingest.flushDeliveryLog()
      const sizeOf = (subject: string, body: string) => `Subject: ${subject}\r\n\r\n${body}\r\n`.length
      expect((await listDeliveries(db, Number(id), { limit: 10 })).map((r) => [r.result, r.reply_code, r.enhanced_status, r.reason, r.size])).toEqual([
        ['deferred', 452, '4.3.1', 'storage_full', sizeOf('big', big)],
        ['accepted', 250, '2.0.0', 'accepted', sizeOf('small', 'hello')],
      ])
      // Filled up to the cap by other mail: RCPT refuses before any data is sent.
      await db.insertInto('contact_message').values({ name: 'n', email: 'e@example.test', subject: 's', message: randomBytes(600 * 1024).toString('base64'), submitted_at: Date.now() }).execute()
      await expect.poll(async () => {
        expect(await s.command('RSET')).toMatch(/^250 /)
        expect(await s.command('MAIL FROM:<sender@example.test>')).toMatch(/^250 /)
        return (await s.command(`RCPT TO:<${to}>`)).slice(0, 9)
      }).toBe('452 4.3.1')
    })
  })
})

describe('the disk under the SQLite file', () => {
  beforeAll(() => openDatabase('sqlite'))
  afterAll(closeDatabase)

  it('answers 452 4.3.1 at RCPT while the disk has less than MIN_FREE_DISK_BYTES free', async () => {
    const port = await startServer({ MIN_FREE_DISK_BYTES: String(2 ** 60) })
    const to = await createInbox()
    const s = await session(port)
    expect(await s.command(`RCPT TO:<${to}>`)).toMatch(/^452 4\.3\.1 Insufficient system storage \(the disk is almost full\)/)
    expect(await refusals('storage_full')).toBe(1)
  })
})
