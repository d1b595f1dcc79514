import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { InboxResponse } from '@tempbox/types'
import type { App } from '../src/app.js'
import { buildTestApp, nextTurn, onPostgres } from './helper.js'
import { deliver, deliverMany, generate } from './email-fixtures.js'

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
  it('answers an empty inbox, never to be kept in a cache', async () => {
    const res = await list(address)
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('private, no-store')
    expect(res.json()).toEqual({ messages: [], total: 0, unread: 0, nextBefore: null })
  })

  it('lists messages newest first with sender, preview, size, html flag, attachment count', async () => {
    await deliver(app, address, { subject: 'first', receivedAt: Date.now() - 60_000, fromName: 'Ann', fromAddress: 'ann@example.com' })
    await deliver(app, address, { subject: 'second', fromName: '', fromAddress: 'bob@example.com', text: 'Body two' })
    const res = await list(address, '?refresh=true&t=12345')
    expect(res.statusCode).toBe(200)
    const { messages } = res.json() as { messages: Record<string, unknown>[] }
    expect(messages.map((m) => m.subject)).toEqual(['second', 'first'])
    expect(messages[0]).toMatchObject({ sender: 'bob@example.com', preview: 'Body two', hasHtml: false, attachmentCount: 0 })
    expect(messages[0]!.size).toBeGreaterThan(0)
    expect(messages[1]).toMatchObject({ sender: 'Ann <ann@example.com>', fromName: 'Ann', fromAddress: 'ann@example.com' })
    expect(typeof messages[0]!.id).toBe('string')
    expect(new Date(messages[0]!.receivedAt as string).toISOString()).toBe(messages[0]!.receivedAt)
  })

  it('renders HTML-only mail as text for the preview', async () => {
    await deliver(app, address, {
      text: null,
      html: '<html><head><style>p{color:red}</style></head><body><h1>Welcome</h1><p>Thanks for <b>joining</b>.</p><script>x()</script></body></html>',
    })
    const { messages } = (await list(address)).json() as { messages: { preview: string; hasHtml: boolean }[] }
    expect(messages[0]!.hasHtml).toBe(true)
    expect(messages[0]!.preview).toContain('Thanks for joining.')
    expect(messages[0]!.preview).not.toMatch(/<|color:red|x\(\)/)
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
      codeDetails: [{ code: '482913', source: 'Your verification code is 482913.', reason: 'labelled', label: 'verification code', position: 26 }],
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
    await nextTurn()
    // SQLite's commit signal shows the update to the next request; PostgreSQL's notification arrives a moment later.
    if (onPostgres) await expect.poll(async () => (await list(address)).statusCode).toBe(404)
    else expect((await list(address)).statusCode).toBe(404)
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
    await expect.poll(async () => (await app.db.selectFrom('inbox').select('id').execute()).length).toBe(0)
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

/** The listing of the test's own address, with query and headers. */
const get = (query = '', headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}${query}`, headers })
const page = async (query = ''): Promise<InboxResponse> => {
  const res = await get(query)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as InboxResponse
}

/** Delivers `n` messages numbered 1..n (subject `m<i>`); returns their ids in that order. */
async function fill(n: number, mail: Parameters<typeof deliver>[2] = {}): Promise<number[]> {
  return deliverMany(app, address, Array.from({ length: n }, (_, i) => ({ subject: `m${i + 1}`, ...mail })))
}

describe('GET /api/email/{address}: pages', () => {
  it('gives the newest 50 by default, with the total and the cursor of the next page', async () => {
    await fill(120)
    const first = await page()
    expect(first.total).toBe(120)
    expect(first.messages).toHaveLength(50)
    expect(first.messages[0]!.subject).toBe('m120')
    expect(first.messages[49]!.subject).toBe('m71')
    expect(first.nextBefore).toBe(first.messages[49]!.id)
  })

  it('walks the whole inbox with before=, each message once, newest first, ending with nextBefore null', async () => {
    await fill(120)
    const seen: string[] = []
    let cursor: string | null = ''
    let pages = 0
    while (cursor !== null) {
      const p = await page(`?limit=50${cursor ? `&before=${cursor}` : ''}`)
      expect(p.total).toBe(120)
      seen.push(...p.messages.map((m) => m.subject))
      cursor = p.nextBefore
      pages++
    }
    expect(pages).toBe(3)
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => `m${120 - i}`))
  })

  it('honours limit from 1 to 200', async () => {
    await fill(205)
    expect((await page('?limit=1')).messages.map((m) => m.subject)).toEqual(['m205'])
    const max = await page('?limit=200')
    expect(max.messages).toHaveLength(200)
    expect(max.nextBefore).toBe(max.messages[199]!.id)
    const rest = await page(`?limit=200&before=${max.nextBefore}`)
    expect(rest.messages.map((m) => m.subject)).toEqual(['m5', 'm4', 'm3', 'm2', 'm1'])
    expect(rest.nextBefore).toBeNull()
  })

  it('answers a page whose last message is the oldest with nextBefore null', async () => {
    await fill(50)
    const p = await page()
    expect(p.messages).toHaveLength(50)
    expect(p.nextBefore).toBeNull()
  })

  it('keeps a cursor valid after the message it names is deleted', async () => {
    const ids = await fill(10)
    const first = await page('?limit=4')
    expect(first.nextBefore).toBe(String(ids[6]))
    expect((await app.inject({ method: 'DELETE', url: `/api/email/${address}/messages/${first.nextBefore}` })).statusCode).toBe(204)
    const next = await page(`?limit=4&before=${first.nextBefore}`)
    expect(next.messages.map((m) => m.subject)).toEqual(['m6', 'm5', 'm4', 'm3'])
    expect(next.total).toBe(9)
  })

  it('lists only the messages of its own inbox', async () => {
    const other = await generate(app)
    await fill(3)
    await deliver(app, other, { subject: 'elsewhere' })
    const p = await page()
    expect(p.total).toBe(3)
    expect(p.messages.map((m) => m.subject)).toEqual(['m3', 'm2', 'm1'])
  })

  it.each([
    ['?limit=0', 'Limit must be at least 1.'],
    ['?limit=201', 'Limit must be at most 200.'],
    ['?limit=-5', 'Limit must be at least 1.'],
    ['?limit=abc', 'Limit must be a whole number.'],
    ['?limit=2.5', 'Limit must be a whole number.'],
    ['?before=abc', 'Before must be a message id (digits only).'],
    ['?before=-1', 'Before must be a message id (digits only).'],
  ])('answers 400 validation_failed with a sentence for %s', async (query, sentence) => {
    const res = await get(query)
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toContain('application/json')
    expect(res.json()).toMatchObject({ code: 'validation_failed', error: sentence })
  })
})

describe('GET /api/email/{address}: summaries, never bodies', () => {
  it('carries a 100-character preview and no text or HTML, however large the message', async () => {
    const text = `Start of the body. ${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20_000)}SECRET-TAIL`
    const html = `<p>${'<b>bold</b> words '.repeat(50_000)}HTML-TAIL</p>`
    await deliver(app, address, { subject: 'S'.repeat(5000), text, html, fromName: 'N'.repeat(2000) })
    const res = await get()
    expect(res.body.length).toBeLessThan(4096)
    expect(res.body).not.toContain('SECRET-TAIL')
    expect(res.body).not.toContain('HTML-TAIL')
    expect(res.body).not.toContain('<b>')
    const [m] = (res.json() as InboxResponse).messages
    expect(Object.keys(m!).sort()).toEqual(
      ['attachmentCount', 'fromAddress', 'fromName', 'hasHtml', 'id', 'preview', 'read', 'receivedAt', 'sender', 'size', 'subject', 'verification'].sort(),
    )
    expect(m!.preview).toBe(`Start of the body. ${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(2)}`.slice(0, 100))
    expect(m!.subject).toBe('S'.repeat(300))
    expect(m!.fromName).toHaveLength(320)
    // The whole message still has everything.
    const full = await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${m!.id}` })
    expect(full.json()).toMatchObject({ subject: 'S'.repeat(5000), hasTextPart: true, content: text.slice(0, 256 * 1024), contentTruncated: true })
    expect((await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${m!.id}/raw` })).body).toContain('SECRET-TAIL')
  })

  it('shows a subject folded over a megabyte as its first 16,384 characters and an ellipsis; the .eml keeps it whole', async () => {
    const subject = `Start ${'x'.repeat(1024 * 1024)} END-OF-SUBJECT`
    await deliver(app, address, { subject, text: 'Hello' })
    const [m] = (await page()).messages
    expect(m!.subject).toBe(subject.slice(0, 300))
    const full = await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${m!.id}` })
    expect(full.json().subject).toBe(`${subject.slice(0, 16_384)}…`)
    expect(full.body.length).toBeLessThan(64 * 1024)
    expect((await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${m!.id}/raw` })).body).toContain('END-OF-SUBJECT')
  })

  it('collapses whitespace runs in the preview', async () => {
    await deliver(app, address, { text: '\n\n   Hello\t\tthere\r\n\r\n  friend   ' })
    expect((await page()).messages[0]!.preview).toBe('Hello there friend')
  })
})

describe('GET /api/email/{address}: ETag and 304', () => {
  it('answers 304 with no body to If-None-Match of the current ETag, 200 to any other', async () => {
    await fill(3)
    const first = await get()
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/)
    const again = await get('', { 'if-none-match': etag })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    // Nothing announced that is not sent: a client trusting Content-Length would wait for it.
    expect(again.headers['content-length']).toBeUndefined()
    expect(again.headers['content-type']).toBeUndefined()
    expect(again.headers.etag).toBe(etag)
    expect(again.headers['cache-control']).toBe('private, no-store')
    // Strong form of the same tag and lists of tags match too (weak comparison).
    expect((await get('', { 'if-none-match': etag.slice(2) })).statusCode).toBe(304)
    expect((await get('', { 'if-none-match': `W/"other", ${etag}` })).statusCode).toBe(304)
    expect((await get('', { 'if-none-match': 'W/"other"' })).statusCode).toBe(200)
  })

  it('gives a new ETag when a message arrives or is deleted, so the poll sees it', async () => {
    await fill(2)
    const before = (await get()).headers.etag as string
    const id = await deliver(app, address, { subject: 'new one' })
    const afterNew = await get('', { 'if-none-match': before })
    expect(afterNew.statusCode).toBe(200)
    expect((afterNew.json() as InboxResponse).messages[0]!.subject).toBe('new one')
    const etagNew = afterNew.headers.etag as string
    expect(etagNew).not.toBe(before)

    await app.inject({ method: 'DELETE', url: `/api/email/${address}/messages/${id}` })
    const afterDelete = await get('', { 'if-none-match': etagNew })
    expect(afterDelete.statusCode).toBe(200)
    expect((afterDelete.json() as InboxResponse).total).toBe(2)
  })

  it('gives each page its own ETag', async () => {
    await fill(6)
    const a = await get('?limit=3')
    const b = await get(`?limit=3&before=${(a.json() as InboxResponse).nextBefore}`)
    expect(a.headers.etag).not.toBe(b.headers.etag)
    expect((await get(`?limit=3&before=${(a.json() as InboxResponse).nextBefore}`, { 'if-none-match': b.headers.etag as string })).statusCode).toBe(304)
    expect((await get('?limit=3', { 'if-none-match': b.headers.etag as string })).statusCode).toBe(200)
  })

  it('keeps the same ETag whatever the encoding', async () => {
    await fill(30, { text: 'A body long enough to be worth compressing. '.repeat(3) })
    const plain = await get()
    const br = await get('', { 'accept-encoding': 'br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.etag).toBe(plain.headers.etag)
    expect((await get('', { 'accept-encoding': 'gzip', 'if-none-match': plain.headers.etag as string })).statusCode).toBe(304)
  })
})
