import { afterEach, describe, expect, it } from 'vitest'
import { recordDeliveries, type DeliveryEntry as StoredEntry } from '@tempbox/db'
import type { DeliveriesResponse } from '@tempbox/types'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

let app: App
afterEach(async () => {
  await app?.close()
})

const deliveries = (address: string, query = '') => app.inject({ method: 'GET', url: `/api/email/${address}/deliveries${query}` })

async function inboxId(address: string): Promise<number> {
  return (await app.db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()).id
}

/** What mail-ingest records for a transaction, with the defaults of a plain accepted one. */
function entry(inbox: number, at: number, fields: Partial<StoredEntry> = {}): StoredEntry {
  return { inboxId: inbox, at, result: 'accepted', replyCode: 250, enhancedStatus: '2.0.0', reason: 'accepted', size: 1200, tag: null, messageId: null, ...fields }
}

describe('GET /api/email/{address}/deliveries', () => {
  it('is empty for a new address', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const res = await deliveries(address)
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toContain('no-store')
    expect(res.json()).toEqual({ deliveries: [], nextBefore: null })
  })

  it('lists accepted, refused and deferred transactions newest first, in words, linking the stored message', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const inbox = await inboxId(address)
    const messageId = await deliver(app, address, { subject: 'Welcome' })
    const t0 = Date.UTC(2026, 10, 28, 9, 0, 0)
    await recordDeliveries(
      app.db,
      [
        entry(inbox, t0, { messageId, tag: 'signup', size: 2048 }),
        entry(inbox, t0 + 1000, { result: 'refused', replyCode: 550, enhancedStatus: '5.7.1', reason: 'fault_reject', tag: 'reject', size: null }),
        entry(inbox, t0 + 2000, { result: 'deferred', replyCode: 452, enhancedStatus: '4.2.2', reason: 'mailbox_full', size: 5000 }),
      ],
      { keep: 100 },
    )
    const body = (await deliveries(address)).json() as DeliveriesResponse
    expect(body.nextBefore).toBeNull()
    expect(body.deliveries.map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        at: '2026-11-28T09:00:02.000Z', result: 'deferred', replyCode: 452, enhancedStatus: '4.2.2', reason: 'mailbox_full',
        reasonText: 'This inbox is full: it holds as many messages or bytes as it may.', size: 5000, tag: null, messageId: null,
      },
      {
        at: '2026-11-28T09:00:01.000Z', result: 'refused', replyCode: 550, enhancedStatus: '5.7.1', reason: 'fault_reject',
        reasonText: 'The +reject tag asked for this: the recipient is refused.', size: null, tag: 'reject', messageId: null,
      },
      {
        at: '2026-11-28T09:00:00.000Z', result: 'accepted', replyCode: 250, enhancedStatus: '2.0.0', reason: 'accepted',
        reasonText: 'The message was accepted and stored.', size: 2048, tag: 'signup', messageId: String(messageId),
      },
    ])
    // The linked message opens.
    const message = await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${body.deliveries[2]!.messageId}` })
    expect(message.json()).toMatchObject({ subject: 'Welcome' })
  })

  it('links no message once it is deleted, and still says what a reason code it does not know stands for', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const inbox = await inboxId(address)
    const messageId = await deliver(app, address)
    await recordDeliveries(app.db, [entry(inbox, Date.now(), { messageId })], { keep: 100 })
    expect((await app.inject({ method: 'DELETE', url: `/api/email/${address}/messages/${messageId}` })).statusCode).toBe(204)
    await recordDeliveries(
      app.db,
      [entry(inbox, Date.now(), { result: 'deferred', replyCode: 421, enhancedStatus: '4.4.2', reason: 'timed_out' as StoredEntry['reason'] })],
      { keep: 100 },
    )
    const body = (await deliveries(address)).json() as DeliveriesResponse
    expect(body.deliveries.map((d) => [d.reason, d.reasonText, d.messageId])).toEqual([
      ['timed_out', 'The server answered 421 4.4.2 (timed_out).', null],
      ['accepted', 'The message was accepted and stored.', null],
    ])
  })

  it('pages with limit and the nextBefore cursor, as the listing does', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const inbox = await inboxId(address)
    const t0 = Date.UTC(2026, 10, 28, 9)
    await recordDeliveries(app.db, Array.from({ length: 5 }, (_, i) => entry(inbox, t0 + i * 1000, { size: i })), { keep: 100 })
    const first = (await deliveries(address, '?limit=2')).json() as DeliveriesResponse
    expect(first.deliveries.map((d) => d.size)).toEqual([4, 3])
    const second = (await deliveries(address, `?limit=2&before=${first.nextBefore}`)).json() as DeliveriesResponse
    expect(second.deliveries.map((d) => d.size)).toEqual([2, 1])
    const last = (await deliveries(address, `?limit=2&before=${second.nextBefore}`)).json() as DeliveriesResponse
    expect(last).toMatchObject({ deliveries: [{ size: 0 }], nextBefore: null })
  })

  it('shows only its own address\'s entries', async () => {
    app = await buildTestApp()
    const mine = await generate(app)
    const other = await generate(app)
    await recordDeliveries(app.db, [entry(await inboxId(other), Date.now(), { tag: 'theirs' })], { keep: 100 })
    expect(((await deliveries(mine)).json() as DeliveriesResponse).deliveries).toEqual([])
    expect(((await deliveries(other)).json() as DeliveriesResponse).deliveries.map((d) => d.tag)).toEqual(['theirs'])
  })

  it('answers JSON errors: unknown address 404, malformed 400, a limit out of range 400', async () => {
    app = await buildTestApp()
    const unknown = await deliveries('nobody-here-at-all@tempbox.local')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toMatchObject({ code: 'inbox_not_found', error: expect.stringContaining('does not exist or has expired') })
    const malformed = await deliveries('not-an-address')
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json()).toMatchObject({ code: 'invalid_address', error: 'That is not a valid email address.' })
    const address = await generate(app)
    const tooMany = await deliveries(address, '?limit=101')
    expect(tooMany.statusCode).toBe(400)
    expect(tooMany.json()).toMatchObject({ code: 'validation_failed', error: expect.any(String) })
  })

  it('counts misses against the guess limit like the other inbox routes: 404s, then 429 for hits too', async () => {
    app = await buildTestApp({ GUESS_LIMIT_PER_MINUTE: '3' })
    const address = await generate(app, undefined, '198.51.100.66')
    const get = (url: string) => app.inject({ method: 'GET', url, remoteAddress: '198.51.100.66' })
    for (let i = 0; i < 3; i++) expect((await get(`/api/email/guess${i}@tempbox.local/deliveries`)).statusCode).toBe(404)
    expect((await get('/api/email/guess3@tempbox.local/deliveries')).statusCode).toBe(429)
    // Once blocked, a hit is refused too: it would tell a guess apart from a miss.
    const refused = await get(`/api/email/${address}/deliveries`)
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toMatchObject({ code: 'rate_limited', error: expect.stringMatching(/^Too many addresses that do not exist/) })
  })

  it('is in the OpenAPI document', async () => {
    app = await buildTestApp()
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, { get?: { summary?: string } }> }
    expect(doc.paths['/api/email/{address}/deliveries']?.get?.summary).toMatch(/^The delivery log/)
  })
})
