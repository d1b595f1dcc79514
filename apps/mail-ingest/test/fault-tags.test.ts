import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { listDeliveries } from '@tempbox/db'
import { ENGINES, migratedPostgresDatabase } from '@tempbox/db/testing'
import nodemailer from 'nodemailer'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabase, startIngest, type TestIngest } from './test-ingest.js'
import { rawSession } from '../../../tests/support/smtp-session.js'

const DOMAIN = 'tempbox.test'
const HOUR = 3_600_000
/** Both clients send as this sender unless told otherwise: greylist and tempfail count per sender. */
const SENDER = 'sender@sender.test'
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** `nodes` ingest servers on one new database with a clock the test moves (on PostgreSQL two: the fault state is shared). */
async function start(engine: (typeof ENGINES)[number], extraEnv: Record<string, string> = {}, nodeCount = engine === 'postgres' ? 2 : 1) {
  const database = await openTestDatabase('fault-tags', engine === 'postgres' ? await migratedPostgresDatabase('faults') : undefined)
  cleanups.push(database.close)
  const { storage } = database
  const clock = { now: Date.now() }
  const env = { MAIL_DOMAINS: DOMAIN, MAIL_AUTH: 'off', SMTP_INBOX_CACHE_MS: '0', SMTP_PARSE_WORKERS: '0', ...extraEnv }
  const nodes: TestIngest[] = []
  for (let i = 0; i < nodeCount; i++) {
    const node = await startIngest(database, env, { clock: () => clock.now, ownConnection: i > 0 })
    cleanups.push(node.close)
    nodes.push(node)
  }
  const issue = async (localPart: string) => {
    const row = await storage.db
      .insertInto('inbox').values({ address: `${localPart}@${DOMAIN}`, local_part: localPart, domain: DOMAIN, created_at: clock.now, expires_at: clock.now + HOUR })
      .returning('id').executeTakeFirstOrThrow()
    return Number(row.id)
  }
  /** The inbox's delivery log, newest first, once every node wrote what it queued. */
  const deliveries = async (inboxId: number) => {
    for (const node of nodes) await node.ingest.flushDeliveryLog()
    return listDeliveries(storage.db, inboxId, { limit: 100 })
  }
  const messages = (inboxId: number) =>
    storage.db.selectFrom('message').innerJoin('message_content', 'message_content.id', 'message.message_content_id')
      .select(['message.id', 'subject', 'rcpt_tag', 'recipients']).where('inbox_id', '=', inboxId).orderBy('message.id').execute()
  return { ports: nodes.map((n) => n.port), clock, issue, deliveries, messages }
}

function send(port: number, to: string, subject = 'hello') {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: false })
  return transport.sendMail({ from: SENDER, to, subject, text: 'body' })
}

/** What Nodemailer surfaces for a failed send: its error code, the SMTP reply code and the reply line. */
async function nodemailerError(port: number, to: string, subject = 'hello') {
  const error = (await send(port, to, subject).then(() => null, (e: unknown) => e)) as { code?: string; responseCode?: number; response?: string } | null
  return error && { code: error.code, responseCode: error.responseCode, response: error.response }
}

const PYTHON_SEND = `
import json, smtplib, sys
port, to, subject, sender = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
msg = f"From: {sender}\\r\\nTo: {to}\\r\\nSubject: {subject}\\r\\n\\r\\nhello from smtplib\\r\\n"
try:
    s = smtplib.SMTP('127.0.0.1', port, timeout=20)
    s.sendmail(sender, [to], msg)
    s.quit()
    print(json.dumps({'ok': True}))
except smtplib.SMTPRecipientsRefused as e:
    code, text = e.recipients[to]
    print(json.dumps({'error': 'SMTPRecipientsRefused', 'code': code, 'text': text.decode()}))
except smtplib.SMTPDataError as e:
    print(json.dumps({'error': 'SMTPDataError', 'code': e.smtp_code, 'text': e.smtp_error.decode()}))
except smtplib.SMTPServerDisconnected as e:
    print(json.dumps({'error': 'SMTPServerDisconnected'}))
`

/** Sends with Python's smtplib (a real client of its own): what it reports. */
async function python(port: number, to: string, subject = 'hello', from = SENDER): Promise<{ ok?: true; error?: string; code?: number; text?: string }> {
  const { stdout } = await promisify(execFile)('python3', ['-c', PYTHON_SEND, String(port), to, subject, from])
  return JSON.parse(stdout) as { ok?: true; error?: string; code?: number; text?: string }
}

const pick = (rows: { result: string; reply_code: number; enhanced_status: string; reason: string; tag: string | null }[]) =>
  rows.map((r) => [r.result, r.reply_code, r.enhanced_status, r.reason, r.tag])

describe.each(ENGINES)('sub-addressing and fault tags on %s', (engine) => {
  it('delivers name+tag to name, keeps the To as sent, records the tag; quotas count on the base address', async () => {
    // With a parse worker (one node: four threads start slowly on a busy machine): the tags travel through it to the store worker.
    const { ports, issue, messages, deliveries } = await start(engine, { MAX_MESSAGES_PER_INBOX: '2', SMTP_PARSE_WORKERS: '1' }, 1)
    const inbox = await issue('subaddr-base')
    await send(ports[0]!, `subaddr-base+news@${DOMAIN}`, 'tagged')
    await send(ports.at(-1)!, `subaddr-base@${DOMAIN}`, 'plain')
    const stored = await messages(inbox)
    expect(stored.map((m) => [m.subject, m.rcpt_tag])).toEqual([['tagged', 'news'], ['plain', null]])
    expect(JSON.parse(stored[0]!.recipients)).toEqual([{ name: '', address: `subaddr-base+news@${DOMAIN}` }])
    // The base holds 2 of 2: its tagged addresses are full too.
    expect(await nodemailerError(ports[0]!, `subaddr-base+other@${DOMAIN}`)).toMatchObject({ code: 'EENVELOPE', responseCode: 452 })
    const log = await deliveries(inbox)
    expect(pick(log)).toEqual([
      ['deferred', 452, '4.2.2', 'mailbox_full', 'other'],
      ['accepted', 250, '2.0.0', 'accepted', null],
      ['accepted', 250, '2.0.0', 'accepted', 'news'],
    ])
    expect(log.slice(1).map((r) => r.message_id)).toEqual([stored[1]!.id, stored[0]!.id])
    // A base never issued: no such address, whatever the tag.
    expect(await nodemailerError(ports[0]!, `never-issued+news@${DOMAIN}`)).toMatchObject({ responseCode: 550 })
  }, 60_000)

  it('an issued name with a + in it is that address: its mail is its own and "+reject" in it is no fault', async () => {
    const { ports, issue, messages } = await start(engine)
    const chosen = await issue('chosen+reject')
    const base = await issue('chosen')
    expect((await python(ports[0]!, `chosen+reject@${DOMAIN}`)).ok).toBe(true)
    expect((await messages(chosen)).map((m) => m.rcpt_tag)).toEqual([null])
    expect(await messages(base)).toEqual([])
  })

  it('+reject: 550 5.7.1 at RCPT, nothing stored; +full: 452 4.2.2; as Nodemailer and smtplib report them', async () => {
    const { ports, issue, messages, deliveries } = await start(engine)
    const inbox = await issue('faulty')
    expect(await nodemailerError(ports[0]!, `faulty+reject@${DOMAIN}`)).toMatchObject({ code: 'EENVELOPE', responseCode: 550, response: expect.stringMatching(/^550 5\.7\.1 /) })
    expect(await python(ports[0]!, `faulty+reject@${DOMAIN}`)).toMatchObject({ error: 'SMTPRecipientsRefused', code: 550, text: expect.stringMatching(/^5\.7\.1 /) })
    expect(await nodemailerError(ports[0]!, `faulty+full@${DOMAIN}`)).toMatchObject({ code: 'EENVELOPE', responseCode: 452, response: expect.stringMatching(/^452 4\.2\.2 /) })
    expect(await python(ports[0]!, `faulty+full@${DOMAIN}`)).toMatchObject({ error: 'SMTPRecipientsRefused', code: 452, text: expect.stringMatching(/^4\.2\.2 /) })
    expect(await messages(inbox)).toEqual([])
    expect(pick(await deliveries(inbox))).toEqual([
      ['deferred', 452, '4.2.2', 'fault_full', 'full'],
      ['deferred', 452, '4.2.2', 'fault_full', 'full'],
      ['refused', 550, '5.7.1', 'fault_reject', 'reject'],
      ['refused', 550, '5.7.1', 'fault_reject', 'reject'],
    ])
  })

  it('+greylist: 451 4.7.1 until the delay has passed since the pair\'s first try (on any node), then accepted', async () => {
    const { ports, clock, issue, messages, deliveries } = await start(engine, { SMTP_FAULT_GREYLIST_SECONDS: '60' })
    const inbox = await issue('grey')
    const to = `grey+greylist@${DOMAIN}`
    expect(await nodemailerError(ports[0]!, to)).toMatchObject({ code: 'EENVELOPE', responseCode: 451, response: expect.stringMatching(/^451 4\.7\.1 Greylisted, try again in 60 seconds/) })
    clock.now += 30_000
    expect(await python(ports.at(-1)!, to)).toMatchObject({ error: 'SMTPRecipientsRefused', code: 451, text: expect.stringMatching(/^4\.7\.1 Greylisted, try again in 30 seconds/) })
    clock.now += 30_000
    expect((await python(ports.at(-1)!, to)).ok).toBe(true)
    clock.now += 1000
    expect(await nodemailerError(ports[0]!, to)).toBeNull()
    // Another sender is a pair of its own: its first try.
    clock.now += 1000
    expect(await python(ports[0]!, to, 'hello', 'other@sender.test')).toMatchObject({ code: 451, text: expect.stringMatching(/in 60 seconds/) })
    expect((await messages(inbox)).map((m) => m.rcpt_tag)).toEqual(['greylist', 'greylist'])
    expect(pick(await deliveries(inbox))).toEqual([
      ['deferred', 451, '4.7.1', 'fault_greylist', 'greylist'],
      ['accepted', 250, '2.0.0', 'accepted', 'greylist'],
      ['accepted', 250, '2.0.0', 'accepted', 'greylist'],
      ['deferred', 451, '4.7.1', 'fault_greylist', 'greylist'],
      ['deferred', 451, '4.7.1', 'fault_greylist', 'greylist'],
    ])
  })

  it('+tempfail2: 451 4.3.0 at the end of DATA for the first 2 tries of a sender, recipient and subject, then accepted', async () => {
    const { ports, clock, issue, messages, deliveries } = await start(engine)
    const inbox = await issue('temp')
    const to = `temp+tempfail2@${DOMAIN}`
    const later = () => (clock.now += 1000)
    expect(await nodemailerError(ports[0]!, to, 'invoice 1')).toMatchObject({ code: 'EMESSAGE', responseCode: 451, response: expect.stringMatching(/^451 4\.3\.0 /) })
    later()
    expect(await python(ports.at(-1)!, to, 'invoice 1', 'other@sender.test')).toMatchObject({ error: 'SMTPDataError', code: 451, text: expect.stringMatching(/^4\.3\.0 /) })
    later()
    // Another subject, another sender: each counts from its first try.
    expect(await nodemailerError(ports[0]!, to, 'invoice 2')).toMatchObject({ responseCode: 451 })
    later()
    expect(await python(ports.at(-1)!, to, 'invoice 1')).toMatchObject({ error: 'SMTPDataError', code: 451 })
    later()
    expect(await nodemailerError(ports[0]!, to, 'invoice 1')).toBeNull()
    expect((await messages(inbox)).map((m) => m.subject)).toEqual(['invoice 1'])
    const log = await deliveries(inbox)
    expect(pick(log)).toEqual([
      ['accepted', 250, '2.0.0', 'accepted', 'tempfail2'],
      ...Array.from({ length: 4 }, () => ['deferred', 451, '4.3.0', 'fault_tempfail', 'tempfail2']),
    ])
    expect(log.slice(1).every((r) => r.size !== null && r.size > 0)).toBe(true)
  })

  it('+disconnect: the connection closes after the final dot without a reply, nothing stored', async () => {
    const { ports, issue, messages, deliveries } = await start(engine)
    const inbox = await issue('cut')
    const to = `cut+disconnect@${DOMAIN}`
    const session = rawSession(ports[0]!)
    await session.reply()
    await session.command('EHLO sender.test')
    expect(await session.command('MAIL FROM:<raw@sender.test>')).toMatch(/^250/)
    expect(await session.command(`RCPT TO:<${to}>`)).toMatch(/^250/)
    expect(await session.command('DATA')).toMatch(/^354/)
    session.socket.write('Subject: cut\r\n\r\nbody\r\n.\r\n')
    await session.closed
    expect(session.lines.at(-1)).toMatch(/^354/)
    // Nodemailer: the connection closed unexpectedly (no response code: none was sent); smtplib likewise.
    expect(await nodemailerError(ports[0]!, to)).toEqual({ code: 'ECONNECTION', responseCode: undefined, response: undefined })
    expect(await python(ports[0]!, to)).toEqual({ error: 'SMTPServerDisconnected' })
    expect(await messages(inbox)).toEqual([])
    expect(pick(await deliveries(inbox))).toEqual(Array.from({ length: 3 }, () => ['deferred', 421, '4.4.2', 'fault_disconnect', 'disconnect']))
  })

  it('+slow2: the 250 comes after the commit, 2 s late; SMTP_FAULT_TAGS=off makes every fault tag a plain tag', async () => {
    const { ports, issue, messages, deliveries } = await start(engine)
    const inbox = await issue('slowly')
    const sent = send(ports[0]!, `slowly+slow2@${DOMAIN}`, 'slow one')
    // Stored (and listed) before the sender has its answer.
    while ((await messages(inbox)).length === 0) await new Promise((r) => setTimeout(r, 50))
    expect((await sent).response).toMatch(/^250 2\.0\.0 Message stored, 2 s late on purpose/)
    expect(pick(await deliveries(inbox))).toEqual([['accepted', 250, '2.0.0', 'fault_slow', 'slow2']])

    const plain = await start(engine, { SMTP_FAULT_TAGS: 'off' })
    const other = await plain.issue('plainly')
    expect(await nodemailerError(plain.ports[0]!, `plainly+reject@${DOMAIN}`)).toBeNull()
    expect((await python(plain.ports[0]!, `plainly+disconnect@${DOMAIN}`)).ok).toBe(true)
    expect((await plain.messages(other)).map((m) => m.rcpt_tag)).toEqual(['reject', 'disconnect'])
  })
})
