import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { createDb, selectMessagesWithContent, type Db } from '@tempbox/db'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeUnstructured } from '../support/rfc2047.js'
import { REPO_ROOT, startStack, type Stack } from '../support/stack.js'

/** Real messages from other projects' test suites, kept in the repository (sources and licences in SOURCES.md and LICENSES/). */
const CORPUS_DIR = resolve(REPO_ROOT, 'tests/fixtures/real-mail')

function listMessages(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'LICENSES' ? [] : listMessages(path)
    return name.endsWith('.eml') ? [path] : []
  })
}

/** What a person should see as the subject: the header decoded, never raw `=?charset?…?=` words. */
const ENCODED_WORD = /=\?[\w.*-]+\?[bq]\?[^?\s]*\?=/i
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim()

/** The unfolded values of the Subject lines in a message's own header block, read from the file, not from our parser. */
function sourceSubjects(source: Buffer): string[] {
  const text = source.toString('latin1')
  const end = /\r?\n\r?\n/.exec(text)?.index ?? text.length
  return text
    .slice(0, end)
    .replace(/\r?\n[ \t]/g, ' ')
    .split(/\r?\n/)
    .filter((line) => /^subject\s*:/i.test(line))
    .map((line) => line.slice(line.indexOf(':') + 1))
}

/**
 * The subject a reader that knows only RFC 2047 shows for a Subject line written with encoded words (the last such
 * line, as ingest takes it), or null for a message whose subject has none.
 */
function independentlyDecodedSubject(source: Buffer): string | null {
  const last = sourceSubjects(source).at(-1)
  if (last === undefined || !ENCODED_WORD.test(last)) return null
  return decodeUnstructured(Buffer.from(last, 'latin1').toString('utf8')).trim()
}

/**
 * What nodemailer puts on the wire for a raw message (and so what the server receives): every line ending CRLF
 * (a bare LF or CR becomes CRLF), and a final CRLF added when the file does not end with a line end.
 */
function asSent(file: Buffer): Buffer {
  const out = Buffer.from(file.toString('latin1').replace(/\r\n|\r|\n/g, '\r\n'), 'latin1')
  return out.length === 0 || out.subarray(-2).toString('latin1') === '\r\n' ? out : Buffer.concat([out, Buffer.from('\r\n')])
}

let stack: Stack
let db: Db
const files = listMessages(CORPUS_DIR).sort()
const replies = new Map<string, string>()

beforeAll(async () => {
  stack = await startStack({ parseWorkers: true })
  db = createDb({ path: stack.dbPath }).db
  const now = Date.now()
  await db
    .insertInto('inbox')
    .values(files.map((_, i) => ({ address: `corpus${i}@${stack.mailDomain}`, local_part: `corpus${i}`, domain: stack.mailDomain, created_at: now, expires_at: now + 3_600_000 })))
    .execute()
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 4 })
  await Promise.all(
    files.map(async (file, i) => {
      const info = await transport
        .sendMail({ envelope: { from: 'corpus@sender.test', to: [`corpus${i}@${stack.mailDomain}`] }, raw: readFileSync(file) })
        .catch((error: { response?: string; message: string }) => ({ response: error.response ?? error.message }))
      replies.set(file, info.response)
    }),
  )
  transport.close()
})

afterAll(async () => {
  await db?.destroy()
  await stack?.stop()
})

describe('the real-mail corpus', () => {
  it('holds the messages listed in its manifest', () => {
    const manifest = readFileSync(join(CORPUS_DIR, 'MANIFEST.md'), 'utf8')
    const listed = manifest.split('\n').filter((line) => /^\| [^|]+ \| [^|]+\.eml \|/.test(line)).length
    expect(files.length).toBe(listed)
    expect(files.length).toBeGreaterThan(100)
  })

  it('has subjects in encoded words of many charsets, each checked against the independent decoder', () => {
    const encoded = files.filter((file) => independentlyDecodedSubject(readFileSync(file)) !== null)
    expect(encoded).toHaveLength(25)
    const charsets = new Set(encoded.flatMap((file) => [...readFileSync(file, 'latin1').matchAll(/=\?([^?*\s]+)[^?\s]*\?[bq]\?/gi)].map((m) => m[1]!.toLowerCase())))
    for (const charset of ['utf-8', 'iso-2022-jp', 'gb2312', 'iso-8859-2', 'windows-1250', 'utf-16', 'euc-kr']) expect(charsets).toContain(charset)
  })

  it.each(files.map((file, i) => [relative(CORPUS_DIR, file), file, i] as const))(
    '%s is accepted with 250, stored with its subject and sender decoded, and downloads whole',
    async (_name, file, i) => {
      expect(replies.get(file)).toMatch(/^250 /)
      const row = await selectMessagesWithContent(db)
        .innerJoin('inbox', 'inbox.id', 'message.inbox_id')
        .select(['message.id', 'message.subject', 'message.from_name', 'message.from_address', 'raw', 'message.size', 'headers'])
        .where('inbox.address', '=', `corpus${i}@${stack.mailDomain}`)
        .executeTakeFirstOrThrow()
      const headers = JSON.parse(row.headers) as Array<[string, string]>
      const subjectHeaders = headers.filter(([name]) => name.toLowerCase() === 'subject').map(([, value]) => value)
      const fromHeader = headers.find(([name]) => name.toLowerCase() === 'from')?.[1] ?? ''
      // Decoded means: no encoded words left, no replacement characters, and a plain header shown as written.
      expect(row.subject).not.toMatch(ENCODED_WORD)
      expect(row.subject).not.toContain('\uFFFD')
      expect(row.from_name).not.toMatch(ENCODED_WORD)
      const plainSubjects = subjectHeaders.filter((value) => !ENCODED_WORD.test(value)).map(collapse)
      if (plainSubjects.length === subjectHeaders.length && plainSubjects.length > 0) expect(plainSubjects).toContain(collapse(row.subject))
      if (subjectHeaders.length === 0) expect(row.subject).toBe('')
      // Encoded words read the same as an RFC 2047 decoder that shares no code with mailparser reads them.
      const decoded = independentlyDecodedSubject(readFileSync(file))
      if (decoded !== null) expect(row.subject).toBe(decoded)
      // A subject the sender wrote is never lost: a non-blank Subject line in the file gives a non-blank subject.
      if (sourceSubjects(readFileSync(file)).some((value) => value.trim() !== '')) expect(row.subject.trim()).not.toBe('')
      const fromAddress = /<([^<>@\s]+@[^<>\s]+)>/.exec(fromHeader)?.[1] ?? /^\s*([^\s<>"@]+@[^\s<>",;]+)\s*$/.exec(fromHeader)?.[1]
      if (fromAddress) expect(row.from_address.toLowerCase()).toBe(fromAddress.toLowerCase())
      expect(row.raw.length).toBeGreaterThan(0)
      // Whether its body was stored once as its text or whole, the .eml is every byte received.
      const eml = await fetch(`${stack.apiUrl}/api/email/corpus${i}@${stack.mailDomain}/messages/${row.id}/raw`)
      expect(eml.status).toBe(200)
      const downloaded = Buffer.from(await eml.arrayBuffer())
      expect(downloaded.length).toBe(row.size)
      expect(downloaded.equals(asSent(readFileSync(file)))).toBe(true)
    },
  )
})
