import { afterEach, describe, expect, it } from 'vitest'
import { recordDeliveries } from '@tempbox/db'
import type { WaitResponse } from '@tempbox/types'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

let app: App
afterEach(async () => {
  await app?.close()
})

const wait = (address: string, query: string) => app.inject({ method: 'GET', url: `/api/email/${address}/wait?${query}` })

async function inboxId(address: string): Promise<number> {
  return (await app.db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()).id
}

describe('GET /api/email/{address}/wait: a timeout says what arrived but did not count', () => {
  it('lists the messages that missed a filter, with the filters each missed, and the refused and deferred deliveries', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const inbox = await inboxId(address)
    const pending = wait(address, `timeout=6&from=${encodeURIComponent('noreply@myapp')}&subject=reset`)
    await expect.poll(() => app.mailWatcher.subscriberCount()).toBe(1)
    const news = await deliver(app, address, { subject: 'Weekly news', fromName: 'News', fromAddress: 'news@myapp.test' })
    const phish = await deliver(app, address, { subject: 'Reset your password', fromName: '', fromAddress: 'phish@elsewhere.test' })
    const now = Date.now()
    await recordDeliveries(
      app.db,
      [
        { inboxId: inbox, at: now, result: 'accepted', replyCode: 250, enhancedStatus: '2.0.0', reason: 'accepted', size: 300, tag: null, messageId: phish },
        { inboxId: inbox, at: now, result: 'deferred', replyCode: 452, enhancedStatus: '4.2.2', reason: 'fault_full', size: null, tag: 'full', messageId: null },
        { inboxId: inbox, at: now, result: 'refused', replyCode: 552, enhancedStatus: '5.2.2', reason: 'mailbox_full', size: 9000, tag: null, messageId: null },
      ],
      { keep: 100 },
    )
    const res = await pending
    expect(res.statusCode).toBe(200)
    const body = res.json() as WaitResponse
    expect(body).toMatchObject({ message: null, messages: [], timedOut: true })
    expect(body.nearMisses?.messages).toEqual([
      { messageId: String(news), subject: 'Weekly news', from: 'News <news@myapp.test>', receivedAt: expect.any(String), failed: ['from', 'subject'] },
      { messageId: String(phish), subject: 'Reset your password', from: 'phish@elsewhere.test', receivedAt: expect.any(String), failed: ['from'] },
    ])
    expect(body.nearMisses?.deliveries.map((d) => [d.result, d.replyCode, d.enhancedStatus, d.reason, d.reasonText, d.tag])).toEqual([
      ['refused', 552, '5.2.2', 'mailbox_full', 'This inbox is full: it holds as many messages or bytes as it may.', null],
      ['deferred', 452, '4.2.2', 'fault_full', 'The +full tag asked for this: the answer is the one a full mailbox gives.', 'full'],
    ])
    expect(body.nearMisses?.more).toBe(false)
  })

  it('counts only what came after `since`: older mail and deliveries before that message are left out', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const inbox = await inboxId(address)
    const old = await deliver(app, address, { subject: 'Older mail' })
    await recordDeliveries(
      app.db,
      [{ inboxId: inbox, at: Date.now() - 60_000, result: 'refused', replyCode: 550, enhancedStatus: '5.7.1', reason: 'fault_reject', size: null, tag: 'reject', messageId: null }],
      { keep: 100 },
    )
    await deliver(app, address, { subject: 'Newer mail' })
    const body = (await wait(address, `timeout=0&since=${old}&subject=code`)).json() as WaitResponse
    expect(body.timedOut).toBe(true)
    expect(body.nearMisses).toEqual({
      messages: [expect.objectContaining({ subject: 'Newer mail', failed: ['subject'] })],
      deliveries: [],
      more: false,
    })
    // A client polling again with since=0 (a new inbox) keeps the whole window.
    const all = (await wait(address, 'timeout=0&since=0&subject=code')).json() as WaitResponse
    expect(all.nearMisses?.messages.map((m) => m.subject)).toEqual(['Older mail', 'Newer mail'])
    expect(all.nearMisses?.deliveries.map((d) => [d.reason, d.tag])).toEqual([['fault_reject', 'reject']])
  })

  it('lists at most 20 messages and says there were more', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    for (let i = 0; i < 22; i++) await deliver(app, address, { subject: `Newsletter ${i}`, text: 'nothing to see' })
    const body = (await wait(address, 'timeout=0&since=0&contains=activate')).json() as WaitResponse
    expect(body.timedOut).toBe(true)
    expect(body.nearMisses?.messages).toHaveLength(20)
    expect(body.nearMisses?.messages[0]).toMatchObject({ subject: 'Newsletter 0', failed: ['contains'] })
    expect(body.nearMisses?.more).toBe(true)
  })

  it('has no near misses when a message matches, and none of the messages when nothing was filtered', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    await deliver(app, address, { subject: 'Your code' })
    const found = (await wait(address, 'timeout=10&since=0&subject=code')).json() as WaitResponse
    expect(found.timedOut).toBe(false)
    expect(found.nearMisses).toBeUndefined()
    // Two wanted, one there: it matched, so it is no near miss.
    const short = (await wait(address, 'timeout=0&since=0&count=2')).json() as WaitResponse
    expect(short).toMatchObject({ timedOut: true, nearMisses: { messages: [], deliveries: [], more: false } })
  })
})
