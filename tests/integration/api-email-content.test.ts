import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { sql } from 'kysely'
import { createDb, fullSource, insertMessage, migrateToLatest, selectMessagesWithContent, type Db } from '@tempbox/db'
import nodemailer, { type Transporter } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, startStack, type Stack } from '../support/stack.js'
import type { SendMailOptions } from 'nodemailer'
import { HOSTILE_HTML, unsafeParts } from '../../packages/mail-derive/test/fixtures/hostile-html.js'
import { activeParts } from '../../packages/mail-derive/test/active-parts.js'
import { hostileBodies } from '../../packages/mail-derive/test/hostile-inputs.js'
import { DERIVED_VERSION } from '../../packages/mail-derive/src/derive.js'

const CORPUS_DIR = resolve(REPO_ROOT, 'tests/fixtures/real-mail')

function htmlCorpus(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'LICENSES' ? [] : htmlCorpus(path)
    return name.endsWith('.eml') && /text\/html/i.test(readFileSync(path, 'latin1')) ? [path] : []
  })
}

let stack: Stack
let db: Db
let smtp: Transporter

/** Addresses are made straight in the database: the per-IP limit would stop a test that needs dozens. */
async function makeInbox(local: string): Promise<string> {
  const address = `${local}@${stack.mailDomain}`
  const now = Date.now()
  await db.insertInto('inbox').values({ address, local_part: local, domain: stack.mailDomain, created_at: now, expires_at: now + 3_600_000 }).execute()
  return address
}

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`)
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

type Listing = { messages: { id: string; subject: string }[] }
type Full = { html: string | null; attachments: { index: number; filename: string; size: number }[]; hasRemoteContent: boolean }

type VerifiedListing = { messages: { id: string; subject: string; verification: { codes: string[]; links: { url: string }[] } }[] }
type DerivedFull = { subject: string; html: string | null; htmlWithheld: string | null; content: string; verification: { codes: string[]; links: unknown[] } }

/** The classes of issue 12 beyond the body shapes of hostileBodies: MIME structure and size. */
const STRUCTURAL: Record<string, SendMailOptions> = {
  'many tiny MIME parts': { text: 'x', alternatives: Array.from({ length: 2000 }, (_, i) => ({ contentType: 'text/plain', content: `p${i}` })) },
  '10,000 attachments of 0 bytes': { text: 'see attached', attachments: Array.from({ length: 10_000 }, (_, i) => ({ filename: `f${i}.bin`, content: Buffer.alloc(0) })) },
  'a 9 MB single-line body': { text: `code 482913 ${'x'.repeat(9 * 1024 * 1024)}` },
}

/** Header values that made scanners backtrack: 1 MB each, sent as raw sources so no client tidies them. */
const HOSTILE_HEADERS: Record<string, (subject: string) => Buffer> = {
  'a 1 MB Content-Type of spaces': (subject) =>
    Buffer.from(`From: evil@evil.test\r\nSubject: ${subject}\r\nContent-Type: text/plain${' '.repeat(1_000_000)}x\r\n\r\nHello\r\n`),
  'a 1 MB From of <': (subject) => Buffer.from(`From: ${'<'.repeat(1_000_000)}\r\nSubject: ${subject}\r\n\r\nHello\r\n`),
}

beforeAll(async () => {
  stack = await startStack()
  db = createDb({ path: stack.dbPath }).db
  smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 4 })
})
afterAll(async () => {
  smtp?.close()
  await db?.destroy()
  await stack?.stop()
})

describe('HTML sanitation of mail received over SMTP', () => {
  it('neutralizes every hostile message', async () => {
    const address = await makeInbox('hostile')
    const names = Object.keys(HOSTILE_HTML)
    for (const name of names) await smtp.sendMail({ from: 'evil@evil.test', to: address, subject: name, html: HOSTILE_HTML[name]! })
    const { messages } = await api<Listing>(`/api/email/${address}`)
    expect(messages.map((m) => m.subject).sort()).toEqual([...names].sort())
    for (const m of messages) {
      const full = await api<Full>(`/api/email/${address}/messages/${m.id}`)
      expect(unsafeParts(full.html ?? ''), `${m.subject}: ${full.html}`).toEqual([])
    }
  })

  const files = htmlCorpus(CORPUS_DIR).sort()
  it(`sanitizes the ${files.length} HTML messages of the real-mail corpus`, async () => {
    expect(files.length).toBeGreaterThan(10)
    const addresses = await Promise.all(files.map((_, i) => makeInbox(`html${i}`)))
    await Promise.all(files.map((file, i) => smtp.sendMail({ envelope: { from: 'corpus@sender.test', to: [addresses[i]!] }, raw: readFileSync(file) })))
    for (const [i, file] of files.entries()) {
      const { messages } = await api<Listing>(`/api/email/${addresses[i]}`)
      expect(messages, relative(CORPUS_DIR, file)).toHaveLength(1)
      const full = await api<Full>(`/api/email/${addresses[i]}/messages/${messages[0]!.id}`)
      expect(unsafeParts(full.html ?? ''), relative(CORPUS_DIR, file)).toEqual([])
    }
  })
})

describe('attachments and source over the real stack', () => {
  it('downloads attachments and the raw message byte for byte', async () => {
    const address = await makeInbox('files')
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256))
    await smtp.sendMail({
      from: 'files@sender.test',
      to: address,
      subject: 'Rapport trimestriel',
      text: 'See attached.',
      attachments: [
        { filename: 'données été.bin', content: binary, contentType: 'application/octet-stream' },
        { filename: 'notes.txt', content: 'plain notes\n' },
      ],
    })
    const { messages } = await api<Listing>(`/api/email/${address}`)
    const id = messages[0]!.id
    const full = await api<Full>(`/api/email/${address}/messages/${id}`)
    expect(full.attachments.map((a) => [a.filename, a.size])).toEqual([
      ['données été.bin', 4096],
      ['notes.txt', 12],
    ])
    const file = await fetch(`${stack.apiUrl}/api/email/${address}/messages/${id}/attachments/0`)
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="donnees ete.bin"; filename*=UTF-8''donn%C3%A9es%20%C3%A9t%C3%A9.bin`)
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await file.arrayBuffer()).equals(binary)).toBe(true)

    const raw = await fetch(`${stack.apiUrl}/api/email/${address}/messages/${id}/raw`)
    expect(raw.headers.get('content-type')).toBe('message/rfc822')
    expect(raw.headers.get('content-disposition')).toContain('filename="Rapport trimestriel.eml"')
    const stored = await selectMessagesWithContent(db).select(['raw', 'text', 'raw_body_is_text']).where('message.id', '=', Number(id)).executeTakeFirstOrThrow()
    expect(Buffer.from(await raw.arrayBuffer()).equals(fullSource(stored))).toBe(true)

    const del = await fetch(`${stack.apiUrl}/api/email/${address}/messages/${id}`, { method: 'DELETE' })
    expect(del.status).toBe(204)
    expect((await api<Listing>(`/api/email/${address}`)).messages).toEqual([])
  })
})

/**
 * Issue 12: no mail can take an inbox (or the service) down. Every hostile message goes over real SMTP into the real
 * ingest and is read back through the real API: accepted or refused cleanly, its derived fields capped, its inbox
 * listing and its own view answering 200.
 */
describe('hostile mail over SMTP', () => {
  it('accepts or cleanly refuses each hostile message, caps what is derived, and the inbox still lists', async () => {
    const address = await makeInbox('hostile-derive')
    const sent: string[] = []
    const messages: [string, SendMailOptions][] = [
      ...Object.entries(hostileBodies(1_000_000)).map(([name, b]): [string, SendMailOptions] => [`${name} (1 MB)`, b]),
      ...Object.entries(hostileBodies(200_000)).map(([name, b]): [string, SendMailOptions] => [`${name} (200 KB)`, b]),
      ...Object.entries(STRUCTURAL),
    ]
    for (const [subject, raw] of Object.entries(HOSTILE_HEADERS)) {
      const info = await smtp.sendMail({ envelope: { from: 'evil@evil.test', to: [address] }, raw: raw(subject) })
      expect(info.response, subject).toMatch(/^250 /)
      sent.push(subject)
    }
    await Promise.all(
      messages.map(async ([subject, body]) => {
        try {
          const info = await smtp.sendMail({ from: 'evil@evil.test', to: address, subject, ...body })
          expect(info.response).toMatch(/^250 /)
          sent.push(subject)
        } catch (error) {
          // A refusal is fine when it is a clear SMTP answer (too big, say), never a dropped connection.
          expect(String((error as { response?: string }).response), subject).toMatch(/^5\d\d /)
        }
      }),
    )
    // The tiny and mid-sized hostile bodies are all well under the size limit: they must have been accepted.
    expect(sent.filter((s) => s.endsWith('(200 KB)'))).toHaveLength(Object.keys(hostileBodies(200_000)).length)
    expect(sent).toContain('10,000 attachments of 0 bytes')
    // 9.4 MB as quoted-printable, under the 10 MB limit.
    expect(sent).toContain('a 9 MB single-line body')

    const { messages: listed } = await api<VerifiedListing>(`/api/email/${address}`)
    expect(listed.map((m) => m.subject).sort()).toEqual([...sent].sort())
    for (const m of listed) {
      expect(m.verification.codes.length, m.subject).toBeLessThanOrEqual(3)
      expect(m.verification.links.length, m.subject).toBeLessThanOrEqual(3)
      const full = await api<DerivedFull>(`/api/email/${address}/messages/${m.id}`)
      if (full.html !== null) expect(activeParts(full.html), m.subject).toEqual([])
      else if (full.htmlWithheld) expect(['too_large', 'unrenderable']).toContain(full.htmlWithheld)
    }

    const stored = await selectMessagesWithContent(db)
      .innerJoin('inbox', 'inbox.id', 'message.inbox_id')
      .select(['message.subject', 'derived_version', 'preview', 'html_text', 'codes', 'links', 'html', 'safe_html', 'html_withheld'])
      .where('inbox.address', '=', address)
      .execute()
    for (const row of stored) {
      expect(row.derived_version, row.subject).not.toBeNull()
      expect([...row.preview].length, row.subject).toBeLessThanOrEqual(100)
      expect(row.html_text?.length ?? 0, row.subject).toBeLessThanOrEqual(64 * 1024)
      expect(row.links.length, row.subject).toBeLessThanOrEqual(3 * 2200)
      // HTML past the display limit is never rendered: its text is shown with a note instead.
      if ((row.html?.length ?? 0) > 256 * 1024) expect([row.safe_html, row.html_withheld], row.subject).toEqual([null, 'too_large'])
    }
    const nineMb = stored.find((r) => r.subject === 'a 9 MB single-line body')
    expect((JSON.parse(nineMb!.codes) as { code: string }[]).map((c) => c.code)).toEqual(['482913'])
    // Its view carries the beginning of the text once, flagged, never the 9 MB.
    const nineMbId = listed.find((m) => m.subject === 'a 9 MB single-line body')!.id
    const view = await api<DerivedFull & { contentTruncated: boolean }>(`/api/email/${address}/messages/${nineMbId}`)
    expect(view.content).toHaveLength(256 * 1024)
    expect(view.content.startsWith('code 482913 xxx')).toBe(true)
    expect(view.contentTruncated).toBe(true)
    expect(view).not.toHaveProperty('text')
    expect((await fetch(`${stack.apiUrl}/api/health`)).status).toBe(200)
    // Sending ~20 MB of mail through nodemailer and mailparser takes a while on a small shared machine.
  }, 240_000)

  it('lists an inbox whose message has a link with &#99999999; and shows the link, even one stored before derivation at ingest', async () => {
    const address = await makeInbox('bad-reference')
    const html = '<p>Welcome!</p><a href="https://app.test/verify?t=&#99999999;">Verify &#99999999; email</a>'
    await smtp.sendMail({ from: 'a@sender.test', to: address, subject: 'Verify your email', html })
    // The same message as an older version stored it: no derived columns yet.
    const inbox = await db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()
    const now = Date.now()
    const [insertId] = await insertMessage(db, [inbox.id], {
      content: { recipients: '[]', headers: '[]', text: null, html, raw: Buffer.from(`Subject: Stored before\r\n\r\n${html}`) },
      listing: { from_name: '', from_address: 'a@sender.test', subject: 'Stored before', sent_at: null, received_at: now, size: html.length },
    })
    // Upgrading derives it (migration 2026_11_28_000801), as every row an older version stored; reads never derive.
    await sql`DELETE FROM kysely_migration WHERE name = '2026_11_28_000801_derive_stored_views'`.execute(db)
    await migrateToLatest(db)

    const { messages } = await api<VerifiedListing>(`/api/email/${address}`)
    expect(messages.map((m) => [m.subject, m.verification.links.map((l) => l.url)])).toEqual([
      ['Stored before', ['https://app.test/verify?t=\uFFFD']],
      ['Verify your email', ['https://app.test/verify?t=\uFFFD']],
    ])
    const full = await api<DerivedFull>(`/api/email/${address}/messages/${insertId}`)
    expect(full.html).toContain('Verify \uFFFD email')
    // Stored by the upgrade, so no read derives it.
    const row = await selectMessagesWithContent(db).select(['derived_version', 'preview', 'links']).where('message.id', '=', insertId!).executeTakeFirstOrThrow()
    expect(row.derived_version).toBe(DERIVED_VERSION)
    expect(row.preview).toBe('Welcome! Verify \uFFFD email (https://app.test/verify?t=\uFFFD)')
  })
})
