import { CONTENT_COLUMNS, fullSource, migrateToLatest, openStorage, selectMessagesWithContent, toStoredSource, type Db, type Storage } from '@tempbox/db'
import { sql } from 'kysely'
import { ENGINES, freshPostgresDatabase } from '@tempbox/db/testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ParsedMessage } from '../src/parse-message.js'
import { deriveView } from '../src/derive-view.js'
import { createMessageStore, walBytesOf, type MessageToStore } from '../src/store-message.js'

let db: Db
let storage: Storage
let inboxId: number

function message(subject: string, inboxIds = [inboxId]): MessageToStore {
  const parsed: ParsedMessage = {
    from: { name: 'Ann', address: 'ann@example.test' },
    recipients: [{ name: '', address: 'box@tempbox.test' }],
    subject,
    text: `body of ${subject}`,
    html: null,
    sentAt: 1_700_000_000_000,
    headers: [['Subject', subject]],
    attachments: [{ filename: 'a.txt', contentType: 'text/plain', size: 3, contentId: null, isInline: false, content: Buffer.from('abc') }],
  }
  return {
    inboxIds,
    parsed,
    source: toStoredSource(Buffer.from(`Subject: ${subject}\r\n\r\nbody\r\n`), parsed.text),
    receivedAt: Date.now(),
    derived: deriveView(parsed),
  }
}

afterEach(async () => {
  await storage.close()
})

describe.each(ENGINES)('message store on %s', (engine) => {
  beforeEach(async () => {
    storage = openStorage({ path: ':memory:', url: engine === 'postgres' ? await freshPostgresDatabase('store') : undefined })
    db = storage.db
    await migrateToLatest(db)
    const now = Date.now()
    const { id } = await db
      .insertInto('inbox')
      .values({ address: 'box@tempbox.test', local_part: 'box', domain: 'tempbox.test', created_at: now, expires_at: now + 60_000 })
      .returning('id')
      .executeTakeFirstOrThrow()
    inboxId = id
  })

  it('writes every field of the message and its attachments', async () => {
    const store = createMessageStore(storage.messageWriter(), { maxBatchMessages: 10 })
    await store.store(message('first'))
    const row = await selectMessagesWithContent(db).selectAll('message').select(CONTENT_COLUMNS).executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      inbox_id: inboxId, from_name: 'Ann', from_address: 'ann@example.test', subject: 'first', text: 'body of first',
      html: null, sent_at: 1_700_000_000_000, attachment_count: 1, headers: '[["Subject","first"]]',
    })
    expect(row.raw.toString()).toBe('Subject: first\r\n\r\nbody\r\n')
    const attachment = await db.selectFrom('attachment').selectAll().executeTakeFirstOrThrow()
    expect(attachment).toMatchObject({ message_content_id: row.message_content_id, position: 0, filename: 'a.txt', content_type: 'text/plain', size: 3, is_inline: 0 })
  })

  it('stores the body of a plain-text message once, as its text, and gives back the exact source', async () => {
    const received = Buffer.from('From: ann@example.test\r\nSubject: plain\r\n\r\nLine one\r\nLine two\r\n')
    const plain = { ...message('plain'), source: toStoredSource(received, 'Line one\nLine two\n') }
    plain.parsed.text = 'Line one\nLine two\n'
    await createMessageStore(storage.messageWriter(), { maxBatchMessages: 10 }).store(plain)
    const row = await selectMessagesWithContent(db).selectAll('message').select(CONTENT_COLUMNS).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ raw_body_is_text: 1, size: received.length, text: 'Line one\nLine two\n' })
    expect(row.raw.toString()).toBe('From: ann@example.test\r\nSubject: plain\r\n\r\n')
    expect(fullSource(row).equals(received)).toBe(true)
  })

  it('stores a text given as UTF-8 bytes as text, not as a blob', async () => {
    const received = Buffer.from('Subject: bytes\r\n\r\nGrüße 🎉\r\nzwei\r\n')
    const bytes = { ...message('bytes'), source: toStoredSource(received, null, 'Subject: bytes\r\n\r\n'.length) }
    bytes.parsed.text = Buffer.from('Grüße 🎉\nzwei\n')
    await createMessageStore(storage.messageWriter(), { maxBatchMessages: 10 }).store(bytes)
    const row = await selectMessagesWithContent(db).selectAll('message').select(CONTENT_COLUMNS).executeTakeFirstOrThrow()
    expect(row.text).toBe('Grüße 🎉\nzwei\n')
    const type = engine === 'postgres' ? sql`pg_typeof(text)::text` : sql`typeof(text)`
    expect((await sql`SELECT ${type} AS type, length(text) AS chars FROM message_content`.execute(db)).rows).toEqual([{ type: 'text', chars: 13 }])
    // The API finds it by its words, and the .eml comes back byte for byte.
    expect((await sql`SELECT count(*) AS n FROM message_content WHERE text LIKE '%zwei%'`.execute(db)).rows).toEqual([{ n: 1 }])
    expect(fullSource(row).equals(received)).toBe(true)
  })

  it('commits messages that arrive together in one transaction', async () => {
    let transactions = 0
    const write = storage.messageWriter()
    const store = createMessageStore((batch) => { transactions++; return write(batch) }, { maxBatchMessages: 100 })
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.store(message(`m${i}`))))
    expect(transactions).toBe(1)
    expect((await db.selectFrom('message').select('id').execute()).length).toBe(20)
  })

  it('stores the good messages of a batch and rejects only the one that cannot be stored', async () => {
    const store = createMessageStore(storage.messageWriter(), { maxBatchMessages: 100 })
    const results = await Promise.allSettled([
      store.store(message('good-1')),
      store.store(message('orphan', [inboxId + 999])),
      store.store(message('good-2')),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    const subjects = (await db.selectFrom('message').select('subject').execute()).map((r) => r.subject)
    expect(subjects.sort()).toEqual(['good-1', 'good-2'])
    expect((await db.selectFrom('attachment').select('id').execute()).length).toBe(2)
  })

  it('reports each committed batch, and never a message that failed', async () => {
    const committed: string[][] = []
    const store = createMessageStore(storage.messageWriter(), {
      maxBatchMessages: 100,
      onCommitted: (messages) => committed.push(messages.map((m) => m.parsed.subject)),
    })
    await Promise.all([store.store(message('a')), store.store(message('b'))])
    await Promise.allSettled([store.store(message('good')), store.store(message('orphan', [inboxId + 999]))])
    expect(committed).toEqual([['a', 'b'], ['good']])
    // The content is written once however many inboxes the message goes to.
    const once = walBytesOf(message('sized'))
    expect(once).toBeGreaterThan(message('sized').source.raw.length)
    expect(walBytesOf(message('sized', [inboxId, inboxId]))).toBeLessThan(once + 1024)
  })

  it('stores a message for each of its inboxes, all or nothing', async () => {
    const store = createMessageStore(storage.messageWriter(), { maxBatchMessages: 100 })
    await expect(store.store(message('split', [inboxId, inboxId + 999]))).rejects.toThrow()
    expect(await db.selectFrom('message').select('id').execute()).toEqual([])
    expect(await db.selectFrom('message_content').select('id').execute()).toEqual([])
  })

  it('writes the content and attachments of a message to several inboxes once', async () => {
    const now = Date.now()
    const { id: other } = await db
      .insertInto('inbox')
      .values({ address: 'other@tempbox.test', local_part: 'other', domain: 'tempbox.test', created_at: now, expires_at: now + 60_000 })
      .returning('id')
      .executeTakeFirstOrThrow()
    await createMessageStore(storage.messageWriter(), { maxBatchMessages: 100 }).store(message('shared', [inboxId, other]))
    const rows = await selectMessagesWithContent(db).select(['message.inbox_id', 'message.subject', 'text']).orderBy('message.inbox_id').execute()
    expect(rows).toEqual([
      { inbox_id: inboxId, subject: 'shared', text: 'body of shared' },
      { inbox_id: other, subject: 'shared', text: 'body of shared' },
    ])
    expect(await db.selectFrom('message_content').select('id').execute()).toHaveLength(1)
    expect(await db.selectFrom('attachment').select('id').execute()).toHaveLength(1)
  })
})
