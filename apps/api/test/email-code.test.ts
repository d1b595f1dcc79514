import type { CodeWaitResponse, FullMessage, WebhookPayload } from '@tempbox/types'
import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'
import { Receiver } from './webhook-receiver.js'

let app: App
let receiver: Receiver | null = null
afterEach(async () => {
  await app?.close()
  await receiver?.stop()
  receiver = null
})

const codeWait = (address: string, query: string) => app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/code?${query}` })
const OTP_TEXT = 'Hello,\n\nYour code is 482913. It expires in 10 minutes.'
const receivedAtOf = async (id: number) =>
  new Date((await app.db.selectFrom('message').select('received_at').where('id', '=', id).executeTakeFirstOrThrow()).received_at).toISOString()

describe('GET /api/email/{address}/code', () => {
  it('answers as soon as a code arrives, with the sentence it came from and the sender verdict', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    await deliver(app, address, { subject: 'An old code', text: 'Your code is 111111.' })
    const pending = codeWait(address, 'timeout=30')
    await expect.poll(() => app.mailWatcher.subscriberCount()).toBe(1)
    await deliver(app, address, { subject: 'Nothing to see', text: 'Just a note, no numbers.' })
    const id = await deliver(app, address, { subject: 'Sign in to Acme', text: OTP_TEXT })
    const res = await pending
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toContain('no-store')
    expect(res.json()).toEqual({
      timedOut: false,
      code: {
        code: '482913',
        source: 'Your code is 482913.',
        reason: 'labelled',
        label: 'code',
        position: OTP_TEXT.indexOf('482913'),
        messageId: String(id),
        receivedAt: await receivedAtOf(id),
        sender: { verdict: 'unknown' },
      },
    } satisfies CodeWaitResponse)
  })

  it('never returns a code of a message up to `since`, and takes the newest after it', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const stale = await deliver(app, address, { subject: 'Your code', text: 'Your code is 111111.' })
    // Without `since`, only mail after the call counts: the stale code is not an answer either. Both waits run at once
    // (each holds its full second; neither sees the other), so the file waits one second here, not two.
    const [afterStale, fromNow] = await Promise.all([codeWait(address, `since=${stale}&timeout=1`), codeWait(address, 'timeout=1')])
    expect(afterStale.json()).toEqual({ code: null, timedOut: true })
    expect(fromNow.json()).toEqual({ code: null, timedOut: true })

    await deliver(app, address, { subject: 'Your code', text: 'Your code is 222222.' })
    const newest = await deliver(app, address, { subject: 'Your code', text: 'OTP: 333333' })
    await deliver(app, address, { subject: 'Newsletter', text: 'Our 2026 roadmap is out.' })
    const body = (await codeWait(address, `since=${stale}&timeout=30`)).json() as CodeWaitResponse
    expect(body.code).toMatchObject({ code: '333333', messageId: String(newest), label: 'OTP', reason: 'labelled' })
  })

  it('gives the verdict of the sender check', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const id = await deliver(app, address, { fromAddress: 'noreply@github.com', subject: 'Your code', text: OTP_TEXT })
    const { message_content_id } = await app.db.selectFrom('message').select('message_content_id').where('id', '=', id).executeTakeFirstOrThrow()
    await app.db.insertInto('message_auth').values({ message_content_id, status: 'pass' }).execute()
    const body = (await codeWait(address, 'since=0&timeout=0')).json() as CodeWaitResponse
    expect(body.code).toMatchObject({ code: '482913', sender: { verdict: 'pass' } })
  })

  it('times out with 200 {code: null, timedOut: true}', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const res = await codeWait(address, 'timeout=1')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ code: null, timedOut: true })
  })

  it('answers 404 for an unknown address and 400 for a bad query, as the other inbox routes', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const unknown = await codeWait('gone@tempbox.local', 'timeout=1')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toMatchObject({ code: 'inbox_not_found', error: expect.any(String) })
    for (const query of ['timeout=61', 'timeout=-1', 'timeout=abc', 'since=abc', 'since=1234567890123456']) {
      const res = await codeWait(address, query)
      expect(res.statusCode, query).toBe(400)
      expect(res.json(), query).toMatchObject({ code: expect.any(String), error: expect.any(String) })
    }
    expect((await codeWait('bad', 'timeout=1')).json()).toMatchObject({ code: 'invalid_address' })
  })

  it('is described in the OpenAPI document, with the fields a code carries', async () => {
    app = await buildTestApp()
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, { get?: { responses: Record<string, unknown> } }> }
    const route = doc.paths['/api/email/{address}/code']?.get
    expect(route).toBeDefined()
    const text = JSON.stringify(route)
    for (const field of ['messageId', 'receivedAt', 'verdict', 'source', 'reason', 'label', 'position', 'timedOut']) expect(text).toContain(field)
    expect(JSON.stringify(doc.paths['/api/email/{address}/messages/{id}'])).toContain('codeDetails')
  })
})

describe('code details wherever codes are', () => {
  const detail = { code: '482913', source: 'Your code is 482913.', reason: 'labelled', label: 'code', position: OTP_TEXT.indexOf('482913') }

  it('in the listing, the message view and the long poll of messages', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const pending = app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/wait?timeout=30` })
    await expect.poll(() => app.mailWatcher.subscriberCount()).toBe(1)
    const id = await deliver(app, address, { subject: 'Sign in', text: OTP_TEXT })
    const waited = (await pending).json() as { message: FullMessage }
    expect(waited.message.verification).toMatchObject({ codes: ['482913'], codeDetails: [detail] })
    const listed = (await app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}` })).json() as { messages: FullMessage[] }
    expect(listed.messages[0]!.verification).toMatchObject({ codes: ['482913'], codeDetails: [detail] })
    const viewed = (await app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/messages/${id}` })).json() as FullMessage
    expect(viewed.verification).toMatchObject({ codes: ['482913'], codeDetails: [detail] })
  })

  it('in the webhook payload', async () => {
    app = await buildTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '600000' })
    receiver = await new Receiver().start()
    const address = await generate(app)
    const hook = await app.inject({
      method: 'PUT',
      url: `/api/email/${address}/webhook`,
      payload: { url: receiver.url() },
    })
    expect(hook.statusCode, hook.body).toBe(201)
    await deliver(app, address, { subject: 'Sign in', text: OTP_TEXT })
    await expect.poll(() => receiver!.bodies.length, { timeout: 20_000 }).toBe(1)
    const payload = JSON.parse(receiver.bodies[0]!) as WebhookPayload
    expect(payload.message.verification).toMatchObject({ codes: ['482913'], codeDetails: [detail] })
  })
})
