import { CONTENT_COLUMNS, fullSource, listDeliveries, selectMessagesWithContent, type Storage } from '@tempbox/db'
import { refuseWrites } from '@tempbox/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IngestServer } from '../src/smtp-server.js'
import { refusalCount } from './refusals.js'
import { openTestDatabase, startIngest, type TestDatabase, type TestIngest } from './test-ingest.js'
import { rawSession } from '../../../tests/support/smtp-session.js'

/**
 * The replies a client reads at RCPT and at the end of DATA where a limit or a rule decides, line for line, at the
 * limit and one past it. One server (no parse workers, no sender check) for the file: the limits are its settings.
 */
const DOMAIN = 'tempbox.test'
const MAX_MESSAGE_BYTES = 4096
const MAX_INBOX_BYTES = 8192
const PLAIN = { MAIL_DOMAINS: DOMAIN, MAIL_AUTH: 'off', SMTP_PARSE_WORKERS: '0', SMTP_INBOX_CACHE_MS: '0' }
let database: TestDatabase
let server: TestIngest
let storage: Storage
let ingest: IngestServer
let port: number

beforeAll(async () => {
  database = await openTestDatabase('rcpt-data-replies')
  server = await startIngest(database, {
    ...PLAIN, SMTP_MAX_RECIPIENTS: '3', MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES), MAX_MESSAGES_PER_INBOX: '2', MAX_INBOX_BYTES: String(MAX_INBOX_BYTES),
  })
  ;({ storage } = database)
  ;({ ingest, port } = server)
})

afterAll(async () => {
  await server.close()
  await database.close()
})

let made = 0
/** A live inbox holding `held` messages of `bytes` bytes in all (its quota counters); its address and id. */
async function inbox(held = 0, bytes = 0): Promise<{ address: string; id: number }> {
  const localPart = `box${++made}`
  const row = await storage.db
    .insertInto('inbox')
    .values({ address: `${localPart}@${DOMAIN}`, local_part: localPart, domain: DOMAIN, created_at: Date.now(), expires_at: Date.now() + 3_600_000, message_count: held, bytes_used: bytes })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { address: `${localPart}@${DOMAIN}`, id: Number(row.id) }
}

/** A greeted session that has said EHLO and `MAIL FROM` (with `args`, e.g. ` SIZE=10`), on this file's server or `to`. */
async function session(args = '', to = port) {
  const s = rawSession(to)
  expect(await s.reply()).toMatch(/^220 /)
  expect(await s.command('EHLO client.test')).toMatch(/^250 /)
  expect(await s.command(`MAIL FROM:<sender@example.test>${args}`)).toMatch(/^250 /)
  return s
}

const stored = (inboxId: number) =>
  selectMessagesWithContent(storage.db).selectAll('message').select(CONTENT_COLUMNS).where('message.inbox_id', '=', inboxId).orderBy('message.id').execute()

/** The inbox's delivery log as [result, code, status, reason, size], once the server wrote what it queued. */
async function log(inboxId: number) {
  await ingest.flushDeliveryLog()
  return (await listDeliveries(storage.db, inboxId, { limit: 10 })).map((r) => [r.result, r.reply_code, r.enhanced_status, r.reason, r.size])
}

describe('RCPT', () => {
  it('refuses another domain as relaying (550 5.7.1) and an unknown address of ours (550 5.1.1); ours in any case is found', async () => {
    const { address } = await inbox()
    const s = await session()
    const relaying = '550 5.7.1 Relaying denied: this server only accepts mail for its own domains'
    expect(await s.command('RCPT TO:<someone@elsewhere.test>')).toBe(relaying)
    expect(await s.command(`RCPT TO:<someone@mail.${DOMAIN}>`)).toBe(relaying)
    expect(await s.command(`RCPT TO:<${DOMAIN}@elsewhere.test>`)).toBe(relaying)
    expect(await s.command(`RCPT TO:<nobody@${DOMAIN}>`)).toBe('550 5.1.1 Mailbox unavailable: no such address, or it has expired')
    expect(await s.command(`RCPT TO:<${address.toUpperCase()}>`)).toBe('250 Accepted')
    await s.command('QUIT')
    // Counted for operators by reason (the unknown address among them, as unknown_recipient).
    expect(await refusalCount(ingest, 'relay_denied')).toBe(3)
  })

  it('takes SMTP_MAX_RECIPIENTS recipients, answers 452 4.5.3 to the next, and stores the message once per inbox', async () => {
    const [a, b, c] = [await inbox(), await inbox(), await inbox()]
    const s = await session()
    const [local] = a.address.split('@')
    // Three recipients, two of them one inbox (a +tag goes to its base address).
    expect(await s.command(`RCPT TO:<${a.address}>`)).toBe('250 Accepted')
    expect(await s.command(`RCPT TO:<${local}+news@${DOMAIN}>`)).toBe('250 Accepted')
    expect(await s.command(`RCPT TO:<${b.address}>`)).toBe('250 Accepted')
    expect(await s.command(`RCPT TO:<${c.address}>`)).toBe('452 4.5.3 Too many recipients')
    expect(await refusalCount(ingest, 'too_many_recipients')).toBe(1)
    expect(await s.command('DATA')).toMatch(/^354 /)
    expect(await s.command('Subject: three\r\n\r\nhi\r\n.')).toMatch(/^250 /)
    await s.command('QUIT')
    expect((await stored(a.id)).map((m) => m.subject)).toEqual(['three'])
    expect((await stored(b.id)).map((m) => m.subject)).toEqual(['three'])
    expect(await stored(c.id)).toEqual([])
  })

  it('answers 452 4.2.2 to an inbox holding MAX_MESSAGES_PER_INBOX and takes one holding one fewer', async () => {
    const [full, room] = [await inbox(2, 200), await inbox(1, 100)]
    const s = await session()
    expect(await s.command(`RCPT TO:<${full.address}>`)).toBe('452 4.2.2 Mailbox full, try again later')
    expect(await s.command(`RCPT TO:<${room.address}>`)).toBe('250 Accepted')
    await s.command('QUIT')
    expect(await log(full.id)).toEqual([['deferred', 452, '4.2.2', 'mailbox_full', null]])
    expect(await log(room.id)).toEqual([])
  })

  it('answers 452 4.2.2 when the declared SIZE would take the inbox past MAX_INBOX_BYTES, and takes it up to the byte', async () => {
    const nearlyFull = await inbox(1, MAX_INBOX_BYTES - 1000)
    const over = await session(' SIZE=1001')
    expect(await over.command(`RCPT TO:<${nearlyFull.address}>`)).toBe('452 4.2.2 Mailbox full, try again later')
    await over.command('QUIT')
    expect(await log(nearlyFull.id)).toEqual([['deferred', 452, '4.2.2', 'mailbox_full', 1001]])
    const exact = await session(' SIZE=1000')
    expect(await exact.command(`RCPT TO:<${nearlyFull.address}>`)).toBe('250 Accepted')
    await exact.command('QUIT')
  })
})

describe('DATA', () => {
  /** A message whose source, as stored, is `size` bytes. */
  const messageOf = (size: number) => {
    const head = 'Subject: sized\r\n\r\n'
    return `${head}${'x'.repeat(size - head.length - 2)}\r\n`
  }

  it('stores a message of exactly MAX_MESSAGE_BYTES whole', async () => {
    const { address, id } = await inbox()
    const s = await session()
    expect(await s.command(`RCPT TO:<${address}>`)).toBe('250 Accepted')
    expect(await s.command('DATA')).toMatch(/^354 /)
    const source = messageOf(MAX_MESSAGE_BYTES)
    expect(await s.command(`${source}.`)).toMatch(/^250 2\.0\.0 /)
    await s.command('QUIT')
    const [message] = await stored(id)
    expect(message!.size).toBe(MAX_MESSAGE_BYTES)
    expect(fullSource(message!).toString()).toBe(source)
  })

  it('answers 552 5.3.4 naming the limit to a message one byte over it, stores nothing and logs the refusal', async () => {
    const { address, id } = await inbox()
    const s = await session()
    expect(await s.command(`RCPT TO:<${address}>`)).toBe('250 Accepted')
    expect(await s.command('DATA')).toMatch(/^354 /)
    expect(await s.command(`${messageOf(MAX_MESSAGE_BYTES + 1)}.`)).toBe(`552 5.3.4 Message too big: the limit is ${MAX_MESSAGE_BYTES} bytes`)
    // A refusal at DATA ends the transaction only: the session goes on.
    expect(await s.command('MAIL FROM:<sender@example.test>')).toMatch(/^250 /)
    await s.command('QUIT')
    expect(await stored(id)).toEqual([])
    expect(await log(id)).toEqual([['refused', 552, '5.3.4', 'too_big', MAX_MESSAGE_BYTES + 1]])
    expect(await refusalCount(ingest, 'too_big')).toBe(1)
  })

  it('answers 552 5.2.2 at DATA when the message takes its inbox past MAX_INBOX_BYTES, logged and counted as mailbox_full', async () => {
    const nearlyFull = await inbox(1, MAX_INBOX_BYTES - 1000)
    const before = await refusalCount(ingest, 'mailbox_full')
    const s = await session()
    expect(await s.command(`RCPT TO:<${nearlyFull.address}>`)).toBe('250 Accepted')
    expect(await s.command('DATA')).toMatch(/^354 /)
    expect(await s.command(`${messageOf(1001)}.`)).toBe('552 5.2.2 Mailbox full')
    await s.command('QUIT')
    expect(await stored(nearlyFull.id)).toEqual([])
    expect(await log(nearlyFull.id)).toEqual([['refused', 552, '5.2.2', 'mailbox_full', 1001]])
    expect(await refusalCount(ingest, 'mailbox_full')).toBe(before + 1)
  })

  it('answers 451 4.3.0 when the message cannot be stored (its inbox deleted after RCPT), counted as store_failed', async () => {
    const { address, id } = await inbox()
    const s = await session()
    expect(await s.command(`RCPT TO:<${address}>`)).toBe('250 Accepted')
    await storage.db.deleteFrom('inbox').where('id', '=', id).execute()
    expect(await s.command('DATA')).toMatch(/^354 /)
    expect(await s.command(`${messageOf(500)}.`)).toBe('451 4.3.0 Could not store the message, please try again later')
    await s.command('QUIT')
    expect(await refusalCount(ingest, 'store_failed')).toBe(1)
  })

  it('answers 451 4.3.0 when the store refuses the write, and the inbox’s delivery log says store_failed', async () => {
    const { address, id } = await inbox()
    const allowWrites = await refuseWrites(storage.db, 'message_content', 'insert')
    try {
      const s = await session()
      expect(await s.command(`RCPT TO:<${address}>`)).toBe('250 Accepted')
      expect(await s.command('DATA')).toMatch(/^354 /)
      expect(await s.command(`${messageOf(500)}.`)).toBe('451 4.3.0 Could not store the message, please try again later')
      await s.command('QUIT')
    } finally {
      await allowWrites()
    }
    expect(await stored(id)).toEqual([])
    expect(await log(id)).toEqual([['deferred', 451, '4.3.0', 'store_failed', 500]])
  })

  it('answers 451 4.3.1 to a message that outgrows SMTP_MAX_INFLIGHT_BYTES while it arrives, stores nothing, then takes one that fits', async () => {
    const small = await startIngest(database, { ...PLAIN, MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES), SMTP_MAX_INFLIGHT_BYTES: '2048' })
    try {
      const { address, id } = await inbox()
      const s = await session('', small.port)
      expect(await s.command(`RCPT TO:<${address}>`)).toBe('250 Accepted')
      expect(await s.command('DATA')).toMatch(/^354 /)
      expect(await s.command(`${messageOf(3000)}.`)).toBe('451 4.3.1 Too much mail in progress, please try again later')
      expect(await stored(id)).toEqual([])
      await small.ingest.flushDeliveryLog()
      expect((await listDeliveries(storage.db, id, { limit: 10 })).map((r) => [r.result, r.reply_code, r.enhanced_status, r.reason])).toEqual([['deferred', 451, '4.3.1', 'busy']])
      expect(await refusalCount(small.ingest, 'busy')).toBe(1)
      // What it held was given back: a message that fits is taken on the same session.
      expect(await s.command('MAIL FROM:<sender@example.test>')).toMatch(/^250 /)
      expect(await s.command(`RCPT TO:<${address}>`)).toBe('250 Accepted')
      expect(await s.command('DATA')).toMatch(/^354 /)
      expect(await s.command(`${messageOf(1500)}.`)).toMatch(/^250 /)
      await s.command('QUIT')
      expect(await stored(id)).toHaveLength(1)
    } finally {
      await small.close()
    }
  })
})
