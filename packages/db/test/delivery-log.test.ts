import { afterEach, describe, expect, it } from 'vitest'
import { listDeliveries, recordDeliveries, type Db, type DeliveryEntry } from '../src/index.js'
import { ENGINES, freshTestDb } from '../src/testing/index.js'

const opened: Db[] = []
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy()
})

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
})
