import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { createDb, fullSource, selectMessagesWithContent, type Db } from '@tempbox/db'
import nodemailer, { type Transporter } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, startStack, type Stack } from '../support/stack.js'
import { HOSTILE_HTML, unsafeParts } from '../../packages/mail-derive/test/fixtures/hostile-html.js'

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
