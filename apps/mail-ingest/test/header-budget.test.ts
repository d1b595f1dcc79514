import { describe, expect, it } from 'vitest'
import { HEADER_PARSE_LIMITS } from '../src/header-budget.js'
import { parseMessage } from '../src/parse-message.js'

const crlf = (lines: string[]) => Buffer.from(lines.join('\r\n'))
const addresses = (count: number) => Array.from({ length: count }, (_, i) => `user${i}@example.test`)

// What a hostile header block costs the parser is bounded (see header-budget.ts); what the reader gets is checked here.
describe('header lines the parser interprets are bounded', () => {
  it('reads the recipients of a To header up to the address budget, each one whole, and stores the header line whole', async () => {
    const all = addresses(4_000)
    const to = all.join(', ')
    expect(to.length).toBeGreaterThan(HEADER_PARSE_LIMITS.addressBytes * 2)
    const parsed = await parseMessage(crlf(['From: Sender <sender@example.test>', `To: ${to}`, 'Subject: many recipients', '', 'Hello', '']))
    expect(parsed.from).toEqual({ name: 'Sender', address: 'sender@example.test' })
    expect(parsed.subject).toBe('many recipients')
    const read = parsed.recipients.map((r) => r.address)
    expect(read.length).toBeGreaterThan(1_000)
    expect(read.length).toBeLessThan(all.length)
    // The cut falls between addresses: every address read is one that was sent, in order, none cut short.
    expect(read).toEqual(all.slice(0, read.length))
    expect(parsed.headers.find(([name]) => name === 'To')?.[1]).toBe(to)
    expect(parsed.text?.toString()).toBe('Hello\n')
  })

  it('shares the address budget between all address headers: the sender is read, recipients past the budget are not', async () => {
    const half = addresses(1_500).join(', ')
    const parsed = await parseMessage(crlf(['From: sender@example.test', `To: ${half}`, `Cc: ${half}`, `Bcc: ${half}`, 'Subject: s', '', 'Hi', '']))
    expect(parsed.from.address).toBe('sender@example.test')
    const bytes = parsed.recipients.reduce((n, r) => n + r.address.length + 2, 0)
    expect(bytes).toBeLessThanOrEqual(HEADER_PARSE_LIMITS.addressBytes)
    expect(parsed.recipients.length).toBeGreaterThan(0)
  })

  it('keeps an ordinary message with recipients under the budget exactly as before', async () => {
    const few = addresses(200)
    const parsed = await parseMessage(crlf(['From: a@example.test', `To: ${few.join(', ')}`, 'Subject: s', '', 'Hi', '']))
    expect(parsed.recipients.map((r) => r.address)).toEqual(few)
  })

  it('reads a MIME part whose header is a megabyte of quoted To, and still gives the message its text and sender', async () => {
    const raw = crlf([
      'From: sender@example.test',
      'Subject: a huge part header',
      'Content-Type: multipart/mixed; boundary=b',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'the text',
      '--b',
      `To: ${'"a'.repeat(500_000)}`,
      'Content-Type: application/octet-stream',
      '',
      'x',
      '--b--',
      '',
    ])
    const parsed = await parseMessage(raw)
    expect(parsed.from.address).toBe('sender@example.test')
    expect(parsed.subject).toBe('a huge part header')
    expect(String(parsed.text)).toContain('the text')
  })

  it('parses a Content-Type up to the structured line limit: a boundary inside it splits the parts, one past it does not', async () => {
    const filler = 'a'.repeat(HEADER_PARSE_LIMITS.lineBytes * 2)
    const body = ['--b', 'Content-Type: text/plain', '', 'Hello', '--b', 'Content-Type: application/octet-stream', 'Content-Disposition: attachment; filename=f.bin', '', 'AAAA', '--b--', '']
    const before = await parseMessage(crlf(['From: a@example.test', 'Subject: s', `Content-Type: multipart/mixed; boundary=b; x=${filler}`, '', ...body]))
    expect(before.text?.toString()).toBe('Hello')
    expect(before.attachments.map((a) => a.filename)).toEqual(['f.bin'])
    // The bytes past the limit are never parsed, so a boundary there is not seen: a multipart without a boundary has
    // no parts to show (the raw source keeps them).
    const past = await parseMessage(crlf(['From: a@example.test', 'Subject: s', `Content-Type: multipart/mixed; x=${filler}; boundary=b`, '', ...body]))
    expect(past.subject).toBe('s')
    expect(past.attachments).toEqual([])
    expect(past.text).toBeNull()
  })

  it('reads a message whose header block is over the limit by hand: sender, subject and the body as text', async () => {
    const raw = crlf([
      'From: Sender <sender@example.test>',
      'Subject: a huge header block',
      `X-Padding: ${'a'.repeat(HEADER_PARSE_LIMITS.blockBytes)}`,
      'Content-Type: text/html',
      '',
      '<p>body</p>',
      '',
    ])
    const parsed = await parseMessage(raw)
    expect(parsed.from).toEqual({ name: 'Sender', address: 'sender@example.test' })
    expect(parsed.subject).toBe('a huge header block')
    expect(parsed.text).toContain('<p>body</p>')
    expect(parsed.headers.find(([name]) => name === 'X-Padding')?.[1]).toHaveLength(HEADER_PARSE_LIMITS.blockBytes)
  })
})
