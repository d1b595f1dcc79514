import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

let app: App
let address: string
beforeEach(async () => {
  app = await buildTestApp()
  address = await generate(app)
})
afterEach(async () => {
  await app.close()
})

const list = (addr: string, query = '') => app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(addr)}${query}` })

describe('GET /api/email/{address}', () => {
  it('answers an empty inbox, not cacheable', async () => {
    const res = await list(address)
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.json()).toEqual({ messages: [] })
  })

  it('lists messages newest first with sender, preview content, html flag, attachment count', async () => {
    await deliver(app, address, { subject: 'first', receivedAt: Date.now() - 60_000, fromName: 'Ann', fromAddress: 'ann@example.com' })
    await deliver(app, address, { subject: 'second', fromName: '', fromAddress: 'bob@example.com', text: 'Body two' })
    const res = await list(address, '?refresh=true&t=12345')
    expect(res.statusCode).toBe(200)
    const { messages } = res.json() as { messages: Record<string, unknown>[] }
    expect(messages.map((m) => m.subject)).toEqual(['second', 'first'])
    expect(messages[0]).toMatchObject({ sender: 'bob@example.com', content: 'Body two', hasHtml: false, attachmentCount: 0 })
    expect(messages[1]).toMatchObject({ sender: 'Ann <ann@example.com>', fromName: 'Ann', fromAddress: 'ann@example.com' })
    expect(typeof messages[0]!.id).toBe('string')
    expect(new Date(messages[0]!.receivedAt as string).toISOString()).toBe(messages[0]!.receivedAt)
  })

  it('renders HTML-only mail as text for the content', async () => {
    await deliver(app, address, {
      text: null,
      html: '<html><head><style>p{color:red}</style></head><body><h1>Welcome</h1><p>Thanks for <b>joining</b>.</p><script>x()</script></body></html>',
    })
    const { messages } = (await list(address)).json() as { messages: { content: string; hasHtml: boolean }[] }
    expect(messages[0]!.hasHtml).toBe(true)
    expect(messages[0]!.content).toContain('Thanks for joining.')
    expect(messages[0]!.content).not.toMatch(/<|color:red|x\(\)/)
  })

  it('shows a new message on the next read (the cached listing is invalidated)', async () => {
    expect(((await list(address)).json() as { messages: unknown[] }).messages).toHaveLength(0)
    await deliver(app, address, { subject: 'late' })
    expect(((await list(address)).json() as { messages: { subject: string }[] }).messages.map((m) => m.subject)).toEqual(['late'])
  })

  it('finds verification codes and links', async () => {
    await deliver(app, address, {
      subject: 'Confirm your account',
      text: null,
      html: '<p>Your verification code is <b>482913</b>.</p><p><a href="https://app.example.com/verify?token=abc&amp;u=1">Verify email</a> · <a href="https://app.example.com/unsubscribe">Unsubscribe</a></p>',
    })
    const { messages } = (await list(address)).json() as { messages: { verification: unknown }[] }
    expect(messages[0]!.verification).toEqual({
      codes: ['482913'],
      links: [{ url: 'https://app.example.com/verify?token=abc&u=1', label: 'Verify email' }],
    })
  })

  it('answers 400 invalid_address for malformed addresses', async () => {
    for (const bad of ['nope', 'a@', '@b.test', 'a b@c.test', 'a@-b.test']) {
      const res = await list(bad)
      expect(res.statusCode, bad).toBe(400)
      expect(res.json()).toMatchObject({ code: 'invalid_address', error: 'That is not a valid email address.' })
    }
  })

  it('answers 404 inbox_not_found for unknown and for expired addresses, even before the sweep', async () => {
    const unknown = await list('nobody@tempbox.local')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toMatchObject({ code: 'inbox_not_found', error: expect.stringContaining('does not exist or has expired') })

    await deliver(app, address, { subject: 'old' })
    expect((await list(address)).statusCode).toBe(200) // now cached
    await app.db.updateTable('inbox').set({ expires_at: Date.now() - 1 }).where('address', '=', address).execute()
    expect((await list(address)).statusCode).toBe(404)
    const mid = await app.db.selectFrom('message').select('id').executeTakeFirstOrThrow()
    expect((await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${mid.id}` })).statusCode).toBe(404)
  })
})

describe('expiry sweep', () => {
  it('deletes expired addresses with their messages and attachments, keeps live ones', async () => {
    const live = await generate(app)
    await deliver(app, address, { attachments: [{ filename: 'a.txt', contentType: 'text/plain', content: Buffer.from('x') }] })
    await deliver(app, live)
    await app.db.updateTable('inbox').set({ expires_at: Date.now() - 1000 }).where('address', '=', address).execute()
    expect(await app.inboxService.sweep()).toBe(1)
    const inboxes = await app.db.selectFrom('inbox').select('address').execute()
    expect(inboxes.map((i) => i.address)).toEqual([live])
    expect(await app.db.selectFrom('message').select('id').execute()).toHaveLength(1)
    expect(await app.db.selectFrom('attachment').select('id').execute()).toHaveLength(0)
  })

  it('runs on its own every SWEEP_INTERVAL_SECONDS', async () => {
    await app.close()
    app = await buildTestApp({ SWEEP_INTERVAL_SECONDS: '1' })
    address = await generate(app)
    await app.db.updateTable('inbox').set({ expires_at: Date.now() - 1000 }).execute()
    await expect.poll(async () => (await app.db.selectFrom('inbox').select('id').execute()).length, { timeout: 5000 }).toBe(0)
  })
})

describe('compressed listings', () => {
  it('answers gzip or brotli when asked, with the same JSON inside', async () => {
    const { gunzipSync, brotliDecompressSync } = await import('node:zlib')
    for (let i = 0; i < 10; i++) await deliver(app, address, { subject: `m${i}`, text: 'Some body text that is long enough. '.repeat(5) })
    const plain = await app.inject({ method: 'GET', url: `/api/email/${address}` })
    expect(plain.headers['content-encoding']).toBeUndefined()
    const gz = await app.inject({ method: 'GET', url: `/api/email/${address}`, headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gz.headers.vary).toContain('Accept-Encoding')
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json())
    const br = await app.inject({ method: 'GET', url: `/api/email/${address}`, headers: { 'accept-encoding': 'gzip, deflate, br' } })
    expect(br.headers['content-encoding']).toBe('br')
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json())
  })
})
