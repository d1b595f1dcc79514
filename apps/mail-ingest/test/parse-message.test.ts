import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseMessage } from '../src/parse-message.js'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url))

describe('parseMessage', () => {
  it('reads sender, recipients, subject, date, text and header lines of a plain message', async () => {
    const parsed = await parseMessage(fixture('plain-text.eml'))
    expect(parsed.from).toEqual({ name: 'Alice Example', address: 'alice@example.test' })
    expect(parsed.recipients).toEqual([
      { name: 'Bob', address: 'bob@tempbox.local' },
      { name: '', address: 'carol@tempbox.local' },
    ])
    expect(parsed.subject).toBe('Plain hello')
    expect(parsed.sentAt).toBe(Date.parse('2026-11-21T10:00:00Z'))
    // Read straight from the body: the text comes as UTF-8 bytes.
    expect(parsed.text).toEqual(Buffer.from('Hello Bob,\nthis is a plain message.\n'))
    expect(parsed.html).toBeNull()
    expect(parsed.headers[0]).toEqual(['From', '"Alice Example" <alice@example.test>'])
    expect(parsed.headers.map(([name]) => name)).toEqual(['From', 'To', 'Cc', 'Subject', 'Date', 'Message-ID', 'MIME-Version', 'Content-Type'])
    expect(parsed.attachments).toEqual([])
  })

  it('decodes encoded words and keeps HTML without inventing a text part', async () => {
    const parsed = await parseMessage(fixture('html-with-attachment.eml'))
    expect(parsed.from).toEqual({ name: 'José García', address: 'jose@example.test' })
    expect(parsed.subject).toBe('Привет ✓ 日本')
    expect(parsed.html).toContain('<b>attached</b>')
    expect(parsed.text).toBeNull()
  })

  it('extracts attachments with their metadata and content, marking inline ones', async () => {
    const { attachments } = await parseMessage(fixture('html-with-attachment.eml'))
    expect(attachments).toHaveLength(2)
    expect(attachments[0]).toMatchObject({ filename: 'notes.txt', contentType: 'text/plain', size: 16, contentId: null, isInline: false })
    expect(attachments[0]!.content.toString()).toBe('hello attachment')
    expect(attachments[1]).toMatchObject({ filename: 'dot.png', contentType: 'image/png', contentId: 'dot@example.test', isInline: true })
  })

  it('returns a best-effort result for malformed MIME instead of throwing', async () => {
    const parsed = await parseMessage(fixture('malformed.eml'))
    expect(parsed.subject).toBe('Broken MIME')
    expect(parsed.headers.length).toBeGreaterThan(0)
  })

  it('reads raw 8-bit headers as UTF-8, or in the message charset when they are not UTF-8', async () => {
    const utf8 = await parseMessage(Buffer.from('From: Zoë <z@example.test>\r\nSubject: Säying hello\r\n\r\nbody\r\n'))
    expect(utf8.subject).toBe('Säying hello')
    expect(utf8.headers).toContainEqual(['Subject', 'Säying hello'])
    const big5 = Buffer.concat([
      Buffer.from('Subject: '),
      Buffer.from([0xa4, 0x6a]),
      Buffer.from('\r\nContent-Type: text/plain; charset=big5\r\n\r\nbody\r\n'),
    ])
    expect((await parseMessage(big5)).subject).toBe('大')
  })

  it('ignores a UTF-8 byte order mark before the first header', async () => {
    const parsed = await parseMessage(Buffer.from('\uFEFFFrom: <abuse@example.test>\r\nSubject: Report\r\n\r\nbody\r\n'))
    expect(parsed.from.address).toBe('abuse@example.test')
  })

  it('copes with input that is not a message at all', async () => {
    const parsed = await parseMessage(Buffer.from([0, 255, 13, 10, 13, 10, 1, 2, 3]))
    expect(parsed.subject).toBe('')
    expect(parsed.from.address).toBe('')
  })

  it('has no sent date when the Date header cannot be read, rather than the time of parsing', async () => {
    for (const date of ['%DATE%', 'yesterday-ish', '']) {
      const parsed = await parseMessage(Buffer.from(`From: a@example.test\r\nDate: ${date}\r\nSubject: x\r\n\r\nHi\r\n`))
      expect(parsed.sentAt, date).toBeNull()
    }
    const dated = await parseMessage(Buffer.from('From: a@example.test\r\nDate: Mon, 23 Nov 2026 10:00:00 +0100\r\n\r\nHi\r\n'))
    expect(dated.sentAt).toBe(Date.UTC(2026, 10, 23, 9, 0, 0))
  })
})
