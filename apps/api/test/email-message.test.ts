import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { selectMessagesWithContent } from '@tempbox/db'
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

const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f5b6a40000000049454e44ae426082', 'hex')

describe('GET /api/email/{address}/messages/{id}', () => {
  it('answers the whole message: headers, recipients, sanitized html with cid images, attachments', async () => {
    const id = await deliver(app, address, {
      subject: 'Receipt',
      text: 'Plain version',
      html: '<p onclick="steal()">Hi <img src="cid:logo@x"> <img src="https://tracker.example/p.gif"></p><script>alert(1)</script>',
      headers: [['From', 'shop@example.com'], ['X-Test', 'yes']],
      attachments: [
        { filename: 'logo.png', contentType: 'image/png', content: png, contentId: '<logo@x>', inline: true },
        { filename: 'invoice.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4 test') },
      ],
    })
    const res = await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${id}` })
    expect(res.statusCode).toBe(200)
    const m = res.json() as Record<string, unknown>
    expect(m).toMatchObject({ id: String(id), subject: 'Receipt', hasTextPart: true, content: 'Plain version', contentTruncated: false, to: [{ name: '', address }], hasRemoteContent: true })
    expect(m.headers).toEqual([{ name: 'From', value: 'shop@example.com' }, { name: 'X-Test', value: 'yes' }])
    expect(m.attachments).toEqual([
      { index: 0, filename: 'logo.png', contentType: 'image/png', size: png.length, contentId: 'logo@x', inline: true },
      { index: 1, filename: 'invoice.pdf', contentType: 'application/pdf', size: 13, contentId: null, inline: false },
    ])
    expect(m.html).toContain(`src="/api/email/${encodeURIComponent(address)}/messages/${id}/attachments/0"`)
    expect(m.html).toContain('data-remote-src="https://tracker.example/p.gif"')
    expect(m.html).not.toMatch(/onclick|script|alert| src="https:/)
    expect(m.date).toBe('2026-11-22T08:00:00.000Z')
  })

  it('answers 404 for unknown ids and for messages of another inbox', async () => {
    const other = await generate(app)
    const id = await deliver(app, other)
    for (const url of [`/api/email/${address}/messages/999999`, `/api/email/${address}/messages/${id}`, `/api/email/${address}/messages/${id}/raw`]) {
      const res = await app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(404)
      expect(res.json()).toMatchObject({ code: 'message_not_found' })
    }
    expect((await app.inject({ method: 'GET', url: `/api/email/${address}/messages/abc` })).statusCode).toBe(400)
  })
})

describe('raw source and attachments', () => {
  it('downloads a plain message stored as header block + text byte for byte', async () => {
    const raw = Buffer.from('From: a@example.test\r\nSubject: Plain\r\n\r\nYour code is 4821.\r\n\r\nBye\r\n')
    const id = await deliver(app, address, { subject: 'Plain', raw, text: 'Your code is 4821.\n\nBye\n' })
    const stored = await selectMessagesWithContent(app.db).select(['raw', 'raw_body_is_text']).where('message.id', '=', id).executeTakeFirstOrThrow()
    expect(stored.raw_body_is_text).toBe(1)
    const res = await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${id}/raw` })
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.equals(raw)).toBe(true)
    const full = await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${id}` })
    expect(full.json()).toMatchObject({ content: 'Your code is 4821.\n\nBye\n' })
  })

  it('downloads the exact raw bytes as an .eml named after the subject', async () => {
    const raw = Buffer.concat([Buffer.from('Subject: =?UTF-8?B?w6lsw6l2ZQ==?=\r\nX-Bin: '), Buffer.from([0xff, 0xfe, 0x00]), Buffer.from('\r\n\r\nbody\r\n')])
    const id = await deliver(app, address, { subject: 'Élève: notes/1', raw })
    const res = await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${id}/raw` })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('message/rfc822')
    expect(res.rawPayload.equals(raw)).toBe(true)
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Eleve notes 1.eml"; filename*=UTF-8''%C3%89l%C3%A8ve%20notes%201.eml`)
  })

  it('falls back to the id for the .eml name', async () => {
    const id = await deliver(app, address, { subject: '' })
    const res = await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${id}/raw` })
    expect(res.headers['content-disposition']).toContain(`filename="message-${id}.eml"`)
  })

  it('downloads an attachment as a download with its name (RFC 5987 for non-ASCII), never inline', async () => {
    const content = Buffer.from('<script>alert(1)</script>')
    const id = await deliver(app, address, {
      attachments: [
        { filename: 'ok.txt', contentType: 'text/plain', content: Buffer.from('x') },
        { filename: 'отчёт "final".html', contentType: 'text/html', content, inline: true },
      ],
    })
    const res = await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${id}/attachments/1` })
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.equals(content)).toBe(true)
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="_____ _final_.html"; filename*=UTF-8''%D0%BE%D1%82%D1%87%D1%91%D1%82%20%22final%22.html`,
    )
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['content-security-policy']).toContain('sandbox')
    const missing = await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${id}/attachments/7` })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ code: 'attachment_not_found' })
  })
})

describe('DELETE /api/email/{address}/messages/{id}', () => {
  it('deletes the message (204) and it leaves the inbox', async () => {
    const keep = await deliver(app, address, { subject: 'keep' })
    const drop = await deliver(app, address, { subject: 'drop' })
    expect(((await app.inject({ method: 'GET', url: `/api/email/${address}` })).json() as { messages: unknown[] }).messages).toHaveLength(2)
    const res = await app.inject({ method: 'DELETE', url: `/api/email/${address}/messages/${drop}` })
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    const after = (await app.inject({ method: 'GET', url: `/api/email/${address}` })).json() as { messages: { id: string }[] }
    expect(after.messages.map((m) => m.id)).toEqual([String(keep)])
    const again = await app.inject({ method: 'DELETE', url: `/api/email/${address}/messages/${drop}` })
    expect(again.statusCode).toBe(404)
  })
})

const frame = (id: number, query = '', host = 'tempbox.example') =>
  app.inject({ method: 'GET', url: `/api/email/${address}/messages/${id}/frame${query}`, headers: { host } })

describe('GET /api/email/{address}/messages/{id}/frame', () => {
  it('serves the mail as a document under its own policy: no script, images of ours only under its attachment path', async () => {
    const id = await deliver(app, address, {
      html: '<p onclick="steal()">Hi <img src="cid:logo@x" alt="logo"> <img id="t" src="https://tracker.example/p.gif"></p><script>alert(1)</script>',
      attachments: [{ filename: 'logo.png', contentType: 'image/png', content: png, contentId: '<logo@x>', inline: true }],
    })
    const res = await frame(id)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['cache-control']).toBe('private, no-store')
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN')
    const folder = `http://tempbox.example/api/email/${encodeURIComponent(address)}/messages/${id}/attachments/`
    expect(res.headers['content-security-policy']).toBe(
      `default-src 'none'; img-src data: ${folder}; style-src 'unsafe-inline'; font-src data:; form-action 'none'; base-uri 'none'; ` +
        "frame-ancestors 'self'; sandbox allow-same-origin allow-popups allow-popups-to-escape-sandbox",
    )
    expect(res.body).toMatch(/^<!doctype html><html><head><meta charset="utf-8">/)
    expect(res.body).toContain(`src="/api/email/${encodeURIComponent(address)}/messages/${id}/attachments/0"`)
    expect(res.body).not.toMatch(/onclick|<script|alert|tracker\.example/)
  })

  it('restores remote images only with images=true, and lets the policy load them then', async () => {
    const id = await deliver(app, address, { html: '<p>Hi <img id="t" src="https://tracker.example/p.gif"></p>' })
    const shown = await frame(id, '?images=true')
    expect(shown.body).toContain('<img id="t" src="https://tracker.example/p.gif">')
    expect(shown.headers['content-security-policy']).toContain(`/messages/${id}/attachments/ https: http:;`)
    const blocked = await frame(id, '?images=false')
    expect(blocked.body).not.toContain('tracker.example')
    expect(blocked.headers['content-security-policy']).not.toContain('https:')
  })

  it('gives no attachment source for a Host that cannot be written into a policy', async () => {
    const id = await deliver(app, address, { html: '<p>Hi</p>' })
    const res = await frame(id, '', "evil.example;script-src 'unsafe-inline'")
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; img-src data: 'none'; style-src 'unsafe-inline';/)
  })

  it('answers 404 with a sentence for a message without HTML, one that does not exist, and an unknown address', async () => {
    const id = await deliver(app, address, { html: null, text: 'Only text' })
    expect((await frame(id)).json()).toEqual({ error: 'This message has no HTML body to show.', code: 'not_found' })
    expect((await frame(id + 1000)).json()).toMatchObject({ code: 'message_not_found' })
    const unknown = await app.inject({ method: 'GET', url: `/api/email/nobody-here@tempbox.local/messages/1/frame` })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toMatchObject({ code: 'inbox_not_found' })
  })
})
