import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliverIncoming, generate, incomingMessage } from './email-fixtures.js'

let app: App
afterEach(async () => {
  await app?.close()
})

/** Stores a mail as ingest does for `name+tag@…` (tag null: sent to the plain address). */
const deliverTagged = (address: string, subject: string, tag: string | null) =>
  deliverIncoming(app, [address], (inboxIds) => ({ ...incomingMessage(inboxIds, [address], { subject }), deliveries: [{ tag, reason: 'accepted' }] }))

const subjects = async (address: string, q: string) => {
  const res = await app.inject({ method: 'GET', url: `/api/email/${address}?q=${encodeURIComponent(q)}` })
  return { status: res.statusCode, body: res.json() as { messages?: { subject: string }[]; error?: string; code?: string } }
}

describe('GET /api/email/{address}?q=to:+tag (sub-addressing)', () => {
  it('finds the mail sent to one +tag of the address, or all but it', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    await deliverTagged(address, 'Weekly news', 'newsletter')
    await deliverTagged(address, 'Your order', 'shop')
    await deliverTagged(address, 'Plain hello', null)
    expect((await subjects(address, 'to:+newsletter')).body.messages!.map((m) => m.subject)).toEqual(['Weekly news'])
    expect((await subjects(address, 'to:+Newsletter news')).body.messages!.map((m) => m.subject)).toEqual(['Weekly news'])
    expect((await subjects(address, '-to:+newsletter')).body.messages!.map((m) => m.subject)).toEqual(['Plain hello', 'Your order'])
    expect((await subjects(address, 'to:+nothing')).body.messages).toEqual([])
  })

  it('says what to:, without a +tag, can do', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    expect(await subjects(address, `to:${address}`)).toEqual({
      status: 400,
      body: { error: '"to:" takes the +tag a message was sent to, such as to:+newsletter.', code: 'invalid_query' },
    })
  })
})
