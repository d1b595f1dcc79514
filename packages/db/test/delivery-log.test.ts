import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { listDeliveries, migrateToLatest, NO_LIMITS, openStorage, recordDeliveries, refusalKindOf, type Db, type DeliveryEntry, type MessageToStore } from '../src/index.js'
import { ENGINES, freshPostgresDatabase, freshTestDb } from '../src/testing/index.js'

const opened: Db[] = []
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy()
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** A received message as mail-ingest hands it to the writer, with its deliveries. */
function incoming(subject: string, inboxIds: number[], deliveries?: MessageToStore['deliveries']): MessageToStore {
  const raw = Buffer.from(`Subject: ${subject}\r\n\r\nbody\r\n`)
  return {
    inboxIds,
    parsed: { from: { name: 'Ann', address: 'ann@example.test' }, recipients: [], subject, text: 'body', html: null, sentAt: null, headers: [], attachments: [] },
    source: { raw, bodyIsText: false, size: raw.length },
    receivedAt: Date.now(),
    derived: { version: 1, preview: 'body', htmlText: null, codes: [], links: [], safeHtml: null, hasRemoteContent: false, htmlWithheld: null },
    ...(deliveries ? { deliveries } : {}),
  }
}

async function inbox(db: Db, local: string): Promise<number> {
  const now = Date.now()
  const row = await db
    .insertInto('inbox').values({ address: `${local}@tempbox.test`, local_part: local, domain: 'tempbox.test', created_at: now, expires_at: now + 3_600_000 })
    .returning('id').executeTakeFirstOrThrow()
  return Number(row.id)
}

const refused = (inboxId: number, at: number, tag: string | null = null): DeliveryEntry => ({
  inboxId, at, result: 'deferred', replyCode: 451, enhancedStatus: '4.7.1', reason: 'fault_greylist', size: null, tag, messageId: null,
})

describe.each(ENGINES)('the delivery log on %s', (engine) => {
  it('keeps the newest entries per inbox, lists them newest first in pages, and goes with its inbox', async () => {
    const db = await freshTestDb(engine)
    opened.push(db)
    const a = await inbox(db, 'a')
    const b = await inbox(db, 'b')
    const t = 1_700_000_000_000
    await recordDeliveries(db, Array.from({ length: 7 }, (_, i) => refused(a, t + i, `try${i}`)), { keep: 5 })
    await recordDeliveries(db, [refused(b, t), { ...refused(a, t + 7), result: 'accepted', replyCode: 250, enhancedStatus: '2.0.0', reason: 'accepted', size: 1234 }], { keep: 5 })

    const page = await listDeliveries(db, a, { limit: 3 })
    expect(page.map((r) => [r.at, r.result, r.tag])).toEqual([[t + 7, 'accepted', null], [t + 6, 'deferred', 'try6'], [t + 5, 'deferred', 'try5']])
    expect(page[0]).toMatchObject({ inbox_id: a, reply_code: 250, enhanced_status: '2.0.0', reason: 'accepted', size: 1234, message_id: null })
    const next = await listDeliveries(db, a, { before: page[2]!.id, limit: 10 })
    // 8 recorded, 5 kept: the oldest three (t … t+2) are gone.
    expect(next.map((r) => r.at)).toEqual([t + 4, t + 3])
    expect((await listDeliveries(db, a, { after: t + 6, limit: 10 })).map((r) => r.at)).toEqual([t + 7, t + 6])
    expect(await listDeliveries(db, b, { limit: 10 })).toHaveLength(1)

    // A batched refusal is written after an acceptance that came later: listed in time order, and paged by it.
    await recordDeliveries(db, [refused(b, t + 20)], { keep: 5 })
    await recordDeliveries(db, [refused(b, t + 10, 'late')], { keep: 5 })
    const [newest, ...rest] = await listDeliveries(db, b, { limit: 1 })
    expect([newest!.at, rest]).toEqual([t + 20, []])
    expect((await listDeliveries(db, b, { before: newest!.id, limit: 10 })).map((r) => [r.at, r.tag])).toEqual([[t + 10, 'late'], [t, null]])
    await db.deleteFrom('delivery_log').where('inbox_id', '=', b).where('at', '>', t).execute()

    await db.deleteFrom('inbox').where('id', '=', a).execute()
    expect(await db.selectFrom('delivery_log').select('inbox_id').execute()).toEqual([{ inbox_id: b }])
    // An entry for an inbox deleted since its transaction is dropped; the rest of the batch is kept.
    await recordDeliveries(db, [refused(a, t + 8), refused(b, t + 8)], { keep: 5 })
    expect((await listDeliveries(db, b, { limit: 10 })).map((r) => r.at)).toEqual([t + 8, t])
  })

  it('a message row records the +tag it was delivered to', async () => {
    const db = await freshTestDb(engine)
    opened.push(db)
    const a = await inbox(db, 'tagged')
    const content = await db.insertInto('message_content').values({ recipients: '[]', headers: '[]', text: 'x', html: null, raw: Buffer.from('x'), derived_version: null, html_text: null, safe_html: null, html_withheld: null }).returning('id').executeTakeFirstOrThrow()
    const listing = { message_content_id: content.id, from_name: '', from_address: 'x@example.com', subject: 's', sent_at: null, received_at: 1, size: 1 }
    await db.insertInto('message').values([{ ...listing, inbox_id: a, rcpt_tag: 'news' }, { ...listing, inbox_id: a }]).execute()
    expect((await db.selectFrom('message').select('rcpt_tag').orderBy('id').execute()).map((r) => r.rcpt_tag)).toEqual(['news', null])
  })

  it('the ingest writer stores the +tag and the accepted entry in the same commit as the message, trimmed to the newest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempbox-delivery-'))
    const storage = openStorage({ path: join(dir, 'tempbox.sqlite'), url: engine === 'postgres' ? await freshPostgresDatabase('delivery') : undefined })
    cleanups.push(async () => {
      await storage.close()
      rmSync(dir, { recursive: true, force: true })
    })
    await migrateToLatest(storage.db)
    const a = await inbox(storage.db, 'writer-a')
    const b = await inbox(storage.db, 'writer-b')
    const write = storage.messageWriter({ ...NO_LIMITS, deliveryLogEntries: 3, maxMessagesPerInbox: 5 })
    await write([
      incoming('one', [a, b], [{ tag: 'news', reason: 'accepted' }, { tag: null, reason: 'fault_slow' }]),
      incoming('two', [a], [{ tag: null, reason: 'accepted' }]),
      incoming('untracked', [a]),
    ])
    await write([incoming('three', [a], [{ tag: 'x', reason: 'accepted' }]), incoming('four', [a], [{ tag: 'y', reason: 'accepted' }])])

    const messages = await storage.db.selectFrom('message').select(['id', 'inbox_id', 'subject', 'rcpt_tag', 'size']).orderBy('id').execute()
    expect(messages.map((m) => [m.subject, m.inbox_id, m.rcpt_tag])).toEqual([
      ['one', a, 'news'], ['one', b, null], ['two', a, null], ['untracked', a, null], ['three', a, 'x'], ['four', a, 'y'],
    ])
    const idOf = (subject: string, inboxId: number) => messages.find((m) => m.subject === subject && m.inbox_id === inboxId)!.id
    const logA = await listDeliveries(storage.db, a, { limit: 10 })
    // Four entries for a, three kept: 'one' is gone.
    expect(logA.map((r) => [r.message_id, r.tag, r.result, r.reply_code, r.enhanced_status, r.reason])).toEqual([
      [idOf('four', a), 'y', 'accepted', 250, '2.0.0', 'accepted'],
      [idOf('three', a), 'x', 'accepted', 250, '2.0.0', 'accepted'],
      [idOf('two', a), null, 'accepted', 250, '2.0.0', 'accepted'],
    ])
    expect(logA[0]!.size).toBe(messages.find((m) => m.subject === 'four')!.size)
    expect((await listDeliveries(storage.db, b, { limit: 10 })).map((r) => [r.message_id, r.reason])).toEqual([[idOf('one', b), 'fault_slow']])

    // With a larger keep, an inbox is trimmed once per tenth of it, on both engines: at most keep + keep/10 - 1 entries
    // between trims.
    const c = await inbox(storage.db, 'writer-c')
    const roomy = storage.messageWriter({ ...NO_LIMITS, deliveryLogEntries: 20 })
    const counts: number[] = []
    for (let i = 0; i < 30; i++) {
      await roomy([incoming(`c${i}`, [c], [{ tag: null, reason: 'accepted' }])])
      counts.push((await listDeliveries(storage.db, c, { limit: 100 })).length)
    }
    expect(Math.max(...counts)).toBe(21)
    expect(counts.at(-1)).toBe(20)

    // A refused message leaves no entry: the refusal's entry is the SMTP side's to write.
    const refused = await write([incoming('five', [a], [{ tag: null, reason: 'accepted' }])]).catch((error: unknown) => error)
    expect(refusalKindOf(refused)).toBe('mailbox_full')
    expect(await listDeliveries(storage.db, a, { limit: 10 })).toEqual(logA)
  })
})
