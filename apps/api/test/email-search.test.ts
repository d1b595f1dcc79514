import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

let app: App
afterEach(async () => {
  await app?.close()
})

interface Page {
  messages: { id: string; subject: string }[]
  total: number
  nextBefore: string | null
}

const search = (address: string, q: string, extra = '') =>
  app.inject({ method: 'GET', url: `/api/email/${address}?q=${encodeURIComponent(q)}${extra}` })
const subjects = async (address: string, q: string) => ((await search(address, q)).json() as Page).messages.map((m) => m.subject)

async function fill(): Promise<string> {
  app = await buildTestApp()
  const address = await generate(app)
  const day = (d: number) => Date.UTC(2026, 10, d, 12)
  await deliver(app, address, { subject: 'Welcome aboard', fromAddress: 'hello@shop.test', fromName: 'Shop', text: 'Thanks for joining', receivedAt: day(20) })
  await deliver(app, address, {
    subject: 'Your invoice',
    fromAddress: 'billing@shop.test',
    text: 'Invoice attached, 100% paid',
    receivedAt: day(21),
    attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF') }],
  })
  await deliver(app, address, { subject: 'Reset your password', fromAddress: 'noreply@myapp.test', text: 'Use 482913 to reset your password.', receivedAt: day(22) })
  await deliver(app, address, { subject: 'Weekly digest', fromAddress: 'news@other.test', text: 'The weekly news in brief', receivedAt: day(23) })
  // First listing derives the stored view (codes) of these directly inserted rows, as the first read after ingest would.
  await app.inject({ method: 'GET', url: `/api/email/${address}` })
  return address
}

describe('GET /api/email/{address}?q= (search)', () => {
  it('matches free words in subject, sender and text, case-insensitively, newest first', async () => {
    const address = await fill()
    expect(await subjects(address, 'INVOICE')).toEqual(['Your invoice'])
    expect(await subjects(address, 'shop')).toEqual(['Your invoice', 'Welcome aboard'])
    expect(await subjects(address, 'weekly brief')).toEqual(['Weekly digest'])
    expect(await subjects(address, 'nothing-like-this')).toEqual([])
  })

  it('understands from:, subject:, has:, before:/after:, quoted phrases and -exclusions', async () => {
    const address = await fill()
    expect(await subjects(address, 'from:shop.test')).toEqual(['Your invoice', 'Welcome aboard'])
    expect(await subjects(address, 'from:shop -subject:welcome')).toEqual(['Your invoice'])
    expect(await subjects(address, 'has:attachment')).toEqual(['Your invoice'])
    expect(await subjects(address, 'has:code')).toEqual(['Reset your password'])
    expect(await subjects(address, 'after:2026-11-22')).toEqual(['Weekly digest', 'Reset your password'])
    expect(await subjects(address, 'before:2026-11-21')).toEqual(['Welcome aboard'])
    expect(await subjects(address, '"your password"')).toEqual(['Reset your password'])
    expect(await subjects(address, '"password your"')).toEqual([])
    expect(await subjects(address, '-"your"')).toEqual(['Weekly digest', 'Welcome aboard'])
    expect(await subjects(address, '100%')).toEqual(['Your invoice'])
    expect(await subjects(address, '0_%')).toEqual([])
  })

  it('pages through matches with total counting matches only', async () => {
    const address = await fill()
    const first = (await search(address, 'from:shop', '&limit=1')).json() as Page
    expect(first).toMatchObject({ total: 2, messages: [{ subject: 'Your invoice' }] })
    expect(first.nextBefore).not.toBeNull()
    const second = (await search(address, 'from:shop', `&limit=1&before=${first.nextBefore}`)).json() as Page
    expect(second).toMatchObject({ total: 2, messages: [{ subject: 'Welcome aboard' }], nextBefore: null })
  })

  it('answers clear 400s for what it cannot do', async () => {
    const address = await fill()
    const cases: [string, RegExp][] = [
      ['x'.repeat(201), /at most 200 characters/],
      [Array.from({ length: 13 }, (_, i) => `w${i}`).join(' '), /at most 12 terms/],
      ['before:2026-13-01', /YYYY-MM-DD/],
      ['after:yesterday', /YYYY-MM-DD/],
      ['has:stars', /has:attachment or has:code/],
      ['is:starred', /is:unread or is:read/],
      ['from:', /needs something/],
    ]
    for (const [q, sentence] of cases) {
      const res = await search(address, q)
      expect(res.statusCode, q).toBe(400)
      const body = res.json() as { code: string; error: string }
      expect(body.code).toBe('invalid_query')
      expect(body.error).toMatch(sentence)
    }
  })
})
