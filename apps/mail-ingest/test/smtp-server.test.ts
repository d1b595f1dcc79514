import { readFileSync, statSync } from 'node:fs'
import { once } from 'node:events'
import { connect } from 'node:net'
import { CONTENT_COLUMNS, fullSource, selectMessagesWithContent, type Db, type Storage } from '@tempbox/db'
import { sql } from 'kysely'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openTestDatabase, startIngest, type TestDatabase, type TestIngest } from './test-ingest.js'
import { rawSession } from '../../../tests/support/smtp-session.js'

const DOMAIN = 'tempbox.test'
const HOUR = 3_600_000
/** What a test's own server (beside the suite's) runs with: no worker threads to start, only the limit it is about. */
const PLAIN = { MAIL_DOMAINS: DOMAIN, SMTP_PARSE_WORKERS: '0' }
let database: TestDatabase
let suite: TestIngest
let db: Db
let port: number
let dbPath: string
let storage: Storage

async function createInbox(localPart: string, expiresAt = Date.now() + HOUR): Promise<string> {
  const address = `${localPart}@${DOMAIN}`
  await db.insertInto('inbox').values({ address, local_part: localPart, domain: DOMAIN, created_at: Date.now(), expires_at: expiresAt }).execute()
  return address
}

function transport() {
  return nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: false })
}

async function messagesOf(address: string) {
  return selectMessagesWithContent(db)
    .innerJoin('inbox', 'inbox.id', 'message.inbox_id')
    .selectAll('message')
    .select(CONTENT_COLUMNS)
    .where('inbox.address', '=', address)
    .orderBy('message.id')
    .execute()
}

/** Sends and returns the SMTP error's code and response instead of throwing. */
async function sendExpectingRefusal(mail: SendMailOptions): Promise<{ responseCode?: number; response?: string }> {
  try {
    await transport().sendMail(mail)
  } catch (error) {
    return error as { responseCode?: number; response?: string }
  }
  throw new Error('the server accepted a message it should refuse')
}

beforeAll(async () => {
  // A real file, as in production: parsing and writing then run in their worker threads.
  database = await openTestDatabase('mail-ingest-test')
  ;({ path: dbPath, storage, db } = database)
  // A small view limit, so a message under the size limit can carry a text longer than a view shows.
  suite = await startIngest(database, { MAIL_DOMAINS: DOMAIN, MAX_MESSAGE_BYTES: String(64 * 1024), MESSAGE_TEXT_MAX_CHARS: '1000' })
  port = suite.port
})

afterAll(async () => {
  await suite.close()
  await database.close()
})

describe('mail ingest over SMTP', () => {
  it('stores a plain message with sender, recipients, subject, text, date and its exact raw bytes', async () => {
    const to = await createInbox('plain')
    const info = await transport().sendMail({
      from: '"Alice Example" <alice@example.test>',
      to,
      subject: 'Hello there',
      text: 'Just a plain message.',
      date: new Date('2026-11-21T10:00:00Z'),
    })
    expect(info.response).toMatch(/^250 /)
    const [message] = await messagesOf(to)
    expect(message).toMatchObject({
      from_name: 'Alice Example',
      from_address: 'alice@example.test',
      subject: 'Hello there',
      html: null,
      sent_at: Date.parse('2026-11-21T10:00:00Z'),
      attachment_count: 0,
    })
    expect(message!.text?.trim()).toBe('Just a plain message.')
    expect(JSON.parse(message!.recipients)).toEqual([{ name: '', address: to }])
    const headers = JSON.parse(message!.headers) as Array<[string, string]>
    expect(headers).toContainEqual(['Subject', 'Hello there'])
    expect(fullSource(message!).toString()).toContain('Just a plain message.')
    expect(message!.size).toBe(fullSource(message!).length)
  })

  it("stores a text longer than MESSAGE_TEXT_MAX_CHARS with its head, as the api's view cuts it (none for a short one)", async () => {
    const to = await createInbox('longtext')
    const long = `Grüße 🎉 ${'zeile\n'.repeat(600)}`
    await transport().sendMail({ from: 'a@example.test', to, subject: 'long', text: long })
    await transport().sendMail({ from: 'a@example.test', to, subject: 'short', text: 'short' })
    const heads = await selectMessagesWithContent(db)
      .innerJoin('inbox', 'inbox.id', 'message.inbox_id')
      .leftJoin('message_text_head', 'message_text_head.message_content_id', 'message_content.id')
      .select(['message.subject', 'message_text_head.text as head', sql<string>`substr(message_content.text, 1, 1001)`.as('cut')])
      .where('inbox.address', '=', to)
      .orderBy('message.id')
      .execute()
    expect(heads.map((h) => [h.subject, h.head?.length])).toEqual([['long', 1002], ['short', undefined]]) // 1,001 characters, 🎉 two units
    expect(heads[0]!.head).toBe(heads[0]!.cut)
    expect(heads[0]!.head!.startsWith('Grüße 🎉 zeile')).toBe(true)
  })

  it('stores a long encoded text and HTML exactly as decoded, as text, with its head (handed to the writer as bytes)', async () => {
    const to = await createInbox('longencoded')
    // Quoted-printable (mostly ASCII with accents), so the text is decoded by mailparser rather than read from the body.
    const long = Array.from({ length: 330 }, (_, i) => `Zeile ${i}: Grüße ${i % 50 === 0 ? '🎉' : ''}${'x'.repeat(40)}`).join('\n')
    const html = `<p>${long.replaceAll('\n', '</p><p>')}</p>`
    expect(long.length).toBeGreaterThan(16 * 1024)
    await transport().sendMail({ from: 'a@example.test', to, subject: 'long encoded', text: long, html, textEncoding: 'quoted-printable' })
    const [row] = await selectMessagesWithContent(db)
      .innerJoin('inbox', 'inbox.id', 'message.inbox_id')
      .leftJoin('message_text_head', 'message_text_head.message_content_id', 'message_content.id')
      .select(['message_content.text', 'message_content.html', 'message_content.raw', 'message_content.raw_body_is_text', 'message_text_head.text as head'])
      .select([sql<string>`substr(message_content.text, 1, 1001)`.as('cut'), sql<string>`typeof(message_content.text) || ' ' || typeof(message_content.html)`.as('types')])
      .where('inbox.address', '=', to)
      .execute()
    expect(row!.raw.toString()).toContain('Content-Transfer-Encoding: quoted-printable')
    expect(row!.raw_body_is_text).toBe(0)
    expect(row!.text).toBe(long)
    expect(row!.html).toBe(html)
    expect(row!.types).toBe('text text')
    expect(row!.head).toBe(row!.cut)
  })

  it('keeps an HTML-only message as HTML and leaves text empty for the API to render', async () => {
    const to = await createInbox('htmlonly')
    await transport().sendMail({ from: 'news@example.test', to, subject: 'HTML only', html: '<h1>Big news</h1><p>Read <a href="https://example.test">more</a></p>' })
    const [message] = await messagesOf(to)
    expect(message!.html).toContain('<h1>Big news</h1>')
    expect(message!.text).toBeNull()
  })

  it('stores a multipart message with its attachment content and metadata', async () => {
    const to = await createInbox('attach')
    await transport().sendMail({
      from: 'files@example.test',
      to,
      subject: 'With attachment',
      text: 'See attached.',
      html: '<p>See attached.</p>',
      attachments: [{ filename: 'report.csv', content: 'a,b\n1,2\n', contentType: 'text/csv' }],
    })
    const [message] = await messagesOf(to)
    expect(message!.attachment_count).toBe(1)
    const attachments = await db.selectFrom('attachment').selectAll().where('message_content_id', '=', message!.message_content_id).execute()
    expect(attachments).toHaveLength(1)
    expect(attachments[0]).toMatchObject({ position: 0, filename: 'report.csv', content_type: 'text/csv', size: 8, is_inline: 0 })
    expect(attachments[0]!.content.toString()).toBe('a,b\n1,2\n')
  })

  it('decodes a non-ASCII subject and sender name', async () => {
    const to = await createInbox('unicode')
    await transport().sendMail({ from: '"Zoë Łukasiewicz" <zoe@example.test>', to, subject: 'Grüße aus Köln — 東京 ✓', text: 'Unicode body: ñ' })
    const [message] = await messagesOf(to)
    expect(message!.subject).toBe('Grüße aus Köln — 東京 ✓')
    expect(message!.from_name).toBe('Zoë Łukasiewicz')
    expect(message!.text).toContain('ñ')
  })

  it('accepts and stores a malformed message with its raw source', async () => {
    const to = await createInbox('malformed')
    const raw = readFileSync(new URL('./fixtures/malformed.eml', import.meta.url))
    const info = await transport().sendMail({ envelope: { from: 'x@example.test', to: [to] }, raw })
    expect(info.response).toMatch(/^250 /)
    const [message] = await messagesOf(to)
    expect(message!.subject).toBe('Broken MIME')
    expect(fullSource(message!).equals(raw)).toBe(true)
  })

  it('un-stuffs lines starting with a dot and finds the end of DATA however TCP splits the bytes', async () => {
    const to = await createInbox('dots')
    const lines = ['From: dots@example.test', `To: ${to}`, 'Subject: Dots', '', '.starts with a dot', '..two dots', 'a . in the middle', '.', 'last line']
    const original = lines.join('\r\n') + '\r\n'
    const stuffed = lines.map((l) => (l.startsWith('.') ? `.${l}` : l)).join('\r\n') + '\r\n.\r\n'
    // Cut the DATA payload right between a line end and a leading dot, and inside the final terminator.
    const cuts = [stuffed.indexOf('\n..two') + 1, stuffed.indexOf('\r\n..\r\n') + 2, stuffed.length - 2]
    const pieces = [0, ...cuts, stuffed.length].slice(1).map((end, i, ends) => stuffed.slice(i === 0 ? 0 : ends[i - 1], end))
    const replies = await new Promise<string[]>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1')
      const got: string[] = []
      let buffer = ''
      const script = [`EHLO test.local\r\n`, `MAIL FROM:<dots@example.test>\r\n`, `RCPT TO:<${to}>\r\n`, 'DATA\r\n']
      socket.on('error', reject)
      socket.on('data', (chunk) => {
        buffer += chunk.toString()
        let nl: number
        while ((nl = buffer.indexOf('\r\n')) >= 0) {
          const line = buffer.slice(0, nl)
          buffer = buffer.slice(nl + 2)
          if (line[3] === '-') continue
          got.push(line)
          const next = script.shift()
          if (next) socket.write(next)
          else if (line.startsWith('354')) {
            // Separate writes with a pause between them arrive as separate chunks.
            void pieces.reduce((p, piece) => p.then(() => new Promise<void>((r) => socket.write(piece, () => setImmediate(r)))), Promise.resolve())
          } else {
            socket.end('QUIT\r\n')
            resolve(got)
          }
        }
      })
    })
    expect(replies.at(-1)).toMatch(/^250 /)
    const [message] = await messagesOf(to)
    expect(fullSource(message!).toString()).toBe(original)
    // Its body is exactly its text, so it is stored once.
    expect(message!.raw_body_is_text).toBe(1)
    expect(message!.text).toContain('.starts with a dot\n..two dots\na . in the middle\n.\nlast line')
  })

  it('folds committed mail from the WAL into the database file shortly after a burst', async () => {
    const to = await createInbox('checkpointed')
    const before = statSync(dbPath).size
    // Far below SQLite's own autocheckpoint size: only the checkpoint worker moves these pages into the main file.
    const body = 'x'.repeat(40 * 1024)
    for (let i = 0; i < 5; i++) await transport().sendMail({ from: 'a@example.test', to, subject: `bulk ${i}`, text: body })
    // Until checkpointed, the file does not grow at all; then by at least the five bodies (each is kept as its text and
    // in its quoted-printable source, which page packing may share with earlier rows' pages).
    await expect.poll(() => statSync(dbPath).size, { timeout: 5_000 }).toBeGreaterThan(before + 5 * 40 * 1024)
    expect((await messagesOf(to)).map((m) => m.subject)).toEqual(['bulk 0', 'bulk 1', 'bulk 2', 'bulk 3', 'bulk 4'])
  })

  it('lists a message in the inbox of each of our recipients and stores its content once', async () => {
    const first = await createInbox('multi-a')
    const second = await createInbox('multi-b')
    await transport().sendMail({ from: 'a@example.test', to: [first, second], cc: `${first}`, subject: 'For both', text: 'hi' })
    const [[inFirst], [inSecond]] = [await messagesOf(first), await messagesOf(second)]
    expect([inFirst?.subject, inSecond?.subject]).toEqual(['For both', 'For both'])
    expect(inFirst!.message_content_id).toBe(inSecond!.message_content_id)
  })

  it('takes about one copy of disk for a message to 100 of our addresses', async () => {
    const recipients = await Promise.all(Array.from({ length: 100 }, (_, i) => createInbox(`hundred-${i}`)))
    const before = await storage.databaseBytes()
    const text = Array.from({ length: 600 }, (_, i) => `line ${i} of a message that a hundred people receive`.padEnd(76, '.')).join('\n')
    await transport().sendMail({ from: 'a@example.test', to: recipients, subject: 'To a hundred', text })
    const grown = (await storage.databaseBytes()) - before
    const rows = await db.selectFrom('message').select('size').where('subject', '=', 'To a hundred').execute()
    expect(rows).toHaveLength(100)
    // 100 copies would be 100 × size; one copy, its search copy (the text folded, SEARCH_TEXT_MAX_CHARS at most) and a
    // small listing row per inbox stay under three.
    expect(grown).toBeLessThan(3 * rows[0]!.size)
  })

  it('refuses to relay mail for a domain it does not serve', async () => {
    const error = await sendExpectingRefusal({ from: 'a@example.test', to: 'someone@gmail.com', subject: 'x', text: 'x' })
    expect(error.responseCode).toBe(550)
    expect(error.response).toMatch(/^550 5\.7\.1 /)
  })

  it('answers 550 5.1.1 for an address that does not exist', async () => {
    const error = await sendExpectingRefusal({ from: 'a@example.test', to: `nobody@${DOMAIN}`, subject: 'x', text: 'x' })
    expect(error.responseCode).toBe(550)
    expect(error.response).toMatch(/^550 5\.1\.1 /)
  })

  it('answers 550 5.1.1 for an address that has expired', async () => {
    const to = await createInbox('expired', Date.now() - 1)
    const error = await sendExpectingRefusal({ from: 'a@example.test', to, subject: 'x', text: 'x' })
    expect(error.response).toMatch(/^550 5\.1\.1 /)
    expect(await messagesOf(to)).toHaveLength(0)
  })

  it('answers 552 for a message over the size limit and stores nothing', async () => {
    const to = await createInbox('big')
    const error = await sendExpectingRefusal({ from: 'a@example.test', to, subject: 'big', text: 'x'.repeat(100 * 1024) })
    expect(error.responseCode).toBe(552)
    expect(await messagesOf(to)).toHaveLength(0)
  })

  it('advertises the size limit and no AUTH in its EHLO reply', async () => {
    const { createConnection } = await import('node:net')
    const reply = await new Promise<string>((resolve, reject) => {
      let text = ''
      const socket = createConnection({ host: '127.0.0.1', port })
      socket.on('error', reject)
      socket.on('data', (chunk) => {
        text += chunk.toString()
        if (/^220 /m.test(text) && !text.includes('EHLO sent')) {
          text += 'EHLO sent\n'
          socket.write('EHLO test.local\r\n')
        } else if (/^250 /m.test(text.split('EHLO sent')[1] ?? '')) {
          socket.end('QUIT\r\n')
          resolve(text)
        }
      })
    })
    expect(reply).toMatch(/250[- ]SIZE 65536/)
    expect(reply).not.toMatch(/AUTH|STARTTLS/)
  })
})

describe('limits over SMTP', () => {
  it('answers 452 to recipients beyond SMTP_MAX_RECIPIENTS and delivers to the ones before', async () => {
    const capped = await startIngest(database, { ...PLAIN, SMTP_MAX_RECIPIENTS: '2' })
    try {
      const [a, b, c] = [await createInbox('cap-a'), await createInbox('cap-b'), await createInbox('cap-c')]
      const session = rawSession(capped.port)
      expect(await session.reply()).toMatch(/^220 /)
      expect(await session.command('EHLO test.local')).toMatch(/^250 /)
      expect(await session.command('MAIL FROM:<a@example.test>')).toMatch(/^250 /)
      expect(await session.command(`RCPT TO:<${a}>`)).toMatch(/^250 /)
      expect(await session.command(`RCPT TO:<${b}>`)).toMatch(/^250 /)
      expect(await session.command(`RCPT TO:<${c}>`)).toBe('452 4.5.3 Too many recipients')
      expect(await session.command('DATA')).toMatch(/^354 /)
      expect(await session.command('Subject: capped\r\n\r\nhi\r\n.')).toMatch(/^250 /)
      await session.command('QUIT')
      expect((await messagesOf(a)).map((m) => m.subject)).toEqual(['capped'])
      expect((await messagesOf(b)).map((m) => m.subject)).toEqual(['capped'])
      expect(await messagesOf(c)).toHaveLength(0)
    } finally {
      await capped.close()
    }
  })

  it('answers 451 when the message cannot be stored (its inbox was deleted after RCPT), and keeps the session usable', async () => {
    const to = await createInbox('deleted-mid-session')
    const session = rawSession(port)
    expect(await session.reply()).toMatch(/^220 /)
    expect(await session.command('EHLO test.local')).toMatch(/^250 /)
    expect(await session.command('MAIL FROM:<a@example.test>')).toMatch(/^250 /)
    expect(await session.command(`RCPT TO:<${to}>`)).toMatch(/^250 /)
    // The recipient was valid at RCPT; by DATA it is gone, so the insert breaks its foreign key in the store worker.
    await db.deleteFrom('inbox').where('address', '=', to).execute()
    expect(await session.command('DATA')).toMatch(/^354 /)
    expect(await session.command('Subject: too late\r\n\r\nhi\r\n.')).toBe('451 4.3.0 Could not store the message, please try again later')
    expect(await db.selectFrom('message').select('id').where('subject', '=', 'too late').execute()).toHaveLength(0)
    // A temporary failure: the client may go on with another transaction on the same connection.
    const other = await createInbox('after-the-451')
    expect(await session.command('MAIL FROM:<a@example.test>')).toMatch(/^250 /)
    expect(await session.command(`RCPT TO:<${other}>`)).toMatch(/^250 /)
    expect(await session.command('DATA')).toMatch(/^354 /)
    expect(await session.command('Subject: in time\r\n\r\nhi\r\n.')).toMatch(/^250 /)
    await session.command('QUIT')
    expect((await messagesOf(other)).map((m) => m.subject)).toEqual(['in time'])
  })
})

describe("ingest's inbox cache", () => {
  /** One transaction on an open session; answers the replies to RCPT and to the end of DATA (or to DATA if refused). */
  async function transaction(session: ReturnType<typeof rawSession>, to: string, subject: string): Promise<[string, string]> {
    expect(await session.command('MAIL FROM:<a@example.test>')).toMatch(/^250 /)
    const rcpt = await session.command(`RCPT TO:<${to}>`)
    if (!rcpt.startsWith('250')) {
      expect(await session.command('RSET')).toMatch(/^250 /)
      return [rcpt, '']
    }
    expect(await session.command('DATA')).toMatch(/^354 /)
    return [rcpt, await session.command(`Subject: ${subject}\r\n\r\nhi\r\n.`)]
  }

  /** A server whose cache outlives the test: only the expiry check on a hit and the store's own check can refuse. */
  async function cachedServer(clock: () => number = Date.now) {
    const server = await startIngest(database, { ...PLAIN, SMTP_INBOX_CACHE_MS: '600000' }, { clock })
    const session = rawSession(server.port)
    expect(await session.reply()).toMatch(/^220 /)
    expect(await session.command('EHLO test.local')).toMatch(/^250 /)
    return { server, session }
  }

  it('never stores mail for an inbox deleted or expired while it is cached', async () => {
    // RCPT judges expiry by this clock, so the inbox expires exactly when the test says, however slow the machine.
    let now = Date.now()
    const { server: cached, session } = await cachedServer(() => now)
    try {

      // An hour ahead of the wall clock: only the clock given to the server moves past it.
      const expiresAt = now + 3_600_000
      const expiring = await createInbox('cache-expiring', expiresAt)
      const deleted = await createInbox('cache-deleted')
      expect(await transaction(session, expiring, 'while alive')).toEqual([expect.stringMatching(/^250 /), expect.stringMatching(/^250 /)])
      expect(await transaction(session, deleted, 'before delete')).toEqual([expect.stringMatching(/^250 /), expect.stringMatching(/^250 /)])

      // Deleted behind the cache's back: RCPT may still be taken from the cache, but nothing is stored (451, retry).
      await db.deleteFrom('inbox').where('address', '=', deleted).execute()
      const [, afterDelete] = await transaction(session, deleted, 'after delete')
      expect(afterDelete).toBe('451 4.3.0 Could not store the message, please try again later')
      expect(await db.selectFrom('message').select('id').where('subject', '=', 'after delete').execute()).toHaveLength(0)

      // Expired while cached: refused at RCPT as any expired address is.
      now = expiresAt + 1
      expect(await transaction(session, expiring, 'after expiry')).toEqual(['550 5.1.1 Mailbox unavailable: no such address, or it has expired', ''])
      expect((await messagesOf(expiring)).map((m) => m.subject)).toEqual(['while alive'])
      await session.command('QUIT')
    } finally {
      await cached.close()
    }
  })

  it('refuses the next mail to a burned address at RCPT (550 5.1.1), however long the cache', async () => {
    const { server: cached, session } = await cachedServer()
    try {
      const burning = await createInbox('cache-burning')
      await db.updateTable('inbox').set({ burn: 'read' }).where('address', '=', burning).execute()
      expect(await transaction(session, burning, 'first')).toEqual([expect.stringMatching(/^250 /), expect.stringMatching(/^250 /)])

      // What the api does when its first message is marked read.
      await db.deleteFrom('inbox').where('address', '=', burning).execute()
      expect(await transaction(session, burning, 'after burn')).toEqual(['550 5.1.1 Mailbox unavailable: no such address, or it has expired', ''])
      await session.command('QUIT')
    } finally {
      await cached.close()
    }
  })
})

describe('slow clients', () => {
  it('tells a client silent past SMTP_SOCKET_TIMEOUT_MS so (421), then closes it', async () => {
    const idle = await startIngest(database, { ...PLAIN, SMTP_SOCKET_TIMEOUT_MS: '1000' })
    try {
      const session = rawSession(idle.port)
      expect(await session.reply()).toMatch(/^220 /)
      expect(await session.command('EHLO test.local')).toMatch(/^250 /)
      // Then nothing: the server must end the session by itself.
      expect(await session.reply()).toBe('421 Timeout - closing connection')
      await session.closed
    } finally {
      await idle.close()
    }
  })

  it('tells a client that keeps a session busy past the session cap so (421), then closes it', async () => {
    const capped = await startIngest(database, { ...PLAIN, SMTP_MAX_SESSION_MS: '1000' })
    try {
      const session = rawSession(capped.port)
      expect(await session.reply()).toMatch(/^220 /)
      // A NOOP every 100 ms keeps the session from ever being idle, so only the session cap can end it.
      const trickle = setInterval(() => { if (!session.socket.destroyed) session.socket.write('NOOP\r\n') }, 100)
      await session.closed
      clearInterval(trickle)
      expect(session.lines.filter((line) => line.startsWith('250'))).not.toHaveLength(0)
      expect(session.lines.at(-1)).toBe(`421 ${DOMAIN} Session time limit reached, closing connection`)
    } finally {
      await capped.close()
    }
  })

  it('serves a session until the last millisecond before SMTP_MAX_SESSION_MS, then says 421 and closes it', async () => {
    const cap = 5 * 60_000
    const capped = await startIngest(database, { ...PLAIN, SMTP_MAX_SESSION_MS: String(cap) })
    // The cap's timer runs on a faked clock, so the test can stand one millisecond either side of it. The socket's idle
    // timeout runs on Node's own timers, which stay real (and far away).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      const connected = once(capped.ingest.server.server, 'connection')
      const session = rawSession(capped.port)
      await connected
      // The cap's timer was set by the server's first 'connection' listener, at this (faked) instant.
      const start = Date.now()
      // smtp-server greets after a short pause on the same clock (to catch clients that talk too soon).
      let greeted = false
      const greeting = session.reply().finally(() => { greeted = true })
      while (!greeted) {
        await vi.advanceTimersByTimeAsync(10)
        await new Promise((resolve) => setImmediate(resolve))
      }
      expect(await greeting).toMatch(/^220 /)

      await vi.advanceTimersByTimeAsync(start + cap - 1 - Date.now())
      expect(await session.command('NOOP')).toMatch(/^250 /)
      await vi.advanceTimersByTimeAsync(1)
      expect(await session.command('NOOP')).toBe(`421 ${DOMAIN} Session time limit reached, closing connection`)
      await session.closed
    } finally {
      vi.useRealTimers()
      await capped.close()
    }
  })
})

describe('closing with a session stuck mid-DATA', () => {
  /** A server of its own (the suite's keeps running) and a session that sent DATA and some bytes, never the final dot. */
  async function stuckSession(closeTimeoutMs: string) {
    const server = await startIngest(database, { ...PLAIN, SMTP_CLOSE_TIMEOUT_MS: closeTimeoutMs })
    const to = await createInbox(`stuck-${closeTimeoutMs}`)
    const session = rawSession(server.port)
    expect(await session.reply()).toMatch(/^220 /)
    expect(await session.command('EHLO test.local')).toMatch(/^250 /)
    expect(await session.command('MAIL FROM:<a@example.test>')).toMatch(/^250 /)
    expect(await session.command(`RCPT TO:<${to}>`)).toMatch(/^250 /)
    expect(await session.command('DATA')).toMatch(/^354 /)
    session.socket.write('Subject: stuck\r\n\r\nhalf a message\r\n')
    return { server, session, to }
  }

  /** Lets the sockets' I/O run: fake timers stop at the clock, real I/O needs turns of the event loop. */
  async function ioTurns(): Promise<void> {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
  }

  it('keeps the session through SMTP_CLOSE_TIMEOUT_MS, answers 421 at the deadline, closes it and stores nothing', async () => {
    const { server, session, to } = await stuckSession('500')
    // The deadline's timer runs on a faked clock, so the test can stand one millisecond either side of it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let closing: Promise<void>
    try {
      closing = server.close()
      await vi.advanceTimersByTimeAsync(499)
      await ioTurns()
      expect(session.lines.at(-1)).toMatch(/^354 /)
      expect(session.socket.destroyed).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(await session.reply()).toBe(`421 4.3.2 ${DOMAIN} Service shutting down, please try again later`)
    } finally {
      vi.useRealTimers()
    }
    await session.closed
    await closing
    expect(await messagesOf(to)).toEqual([])
  })

  it('closes it at once when SMTP_CLOSE_TIMEOUT_MS=0 (smtp-server alone would wait its 30 s default)', async () => {
    const { server, session, to } = await stuckSession('0')
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let closing: Promise<void>
    try {
      closing = server.close()
      await vi.advanceTimersByTimeAsync(1)
      expect(await session.reply()).toBe(`421 4.3.2 ${DOMAIN} Service shutting down, please try again later`)
    } finally {
      vi.useRealTimers()
    }
    await session.closed
    await closing
    expect(await messagesOf(to)).toEqual([])
  })
})
