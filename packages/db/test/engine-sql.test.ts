import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import {
  asUtf8Bytes, engineOf, findViewHeaders, hasHtml, insertMessage, jsonRecords, lateCommits, matchesAll, notAmongIds, selectMessagesWithContent,
  sharedFaultState, sharedGuessWindow, VIEW_HEADER_LIMITS, type Db,
} from '../src/index.js'
import { ENGINES, freshTestDb } from '../src/testing/index.js'

const opened: Db[] = []
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy()
})

async function open(engine: (typeof ENGINES)[number]): Promise<Db> {
  const db = await freshTestDb(engine)
  opened.push(db)
  return db
}

async function inbox(db: Db): Promise<number> {
  const now = Date.now()
  const row = await db
    .insertInto('inbox').values({ address: 'a@tempbox.test', local_part: 'a', domain: 'tempbox.test', created_at: now, expires_at: now + 3_600_000 })
    .returning('id').executeTakeFirstOrThrow()
  return Number(row.id)
}

async function message(db: Db, inboxId: number, fields: { subject?: string; text?: string | null; html?: string | null; codes?: string[]; headers?: string }) {
  const [id] = await insertMessage(db, [inboxId], {
    content: {
      recipients: '[]', headers: fields.headers ?? '[]', text: fields.text ?? null, html: fields.html ?? null, raw: Buffer.from('Subject: s\r\n\r\n'),
      derived_version: 1, codes: JSON.stringify(fields.codes ?? []),
    },
    listing: { from_name: 'Ann', from_address: 'ann@example.test', subject: fields.subject ?? 's', sent_at: null, received_at: Date.now(), size: 10 },
  })
  return id!
}

describe.each(ENGINES)('the engine-specific SQL of the storage layer on %s', (engine) => {
  it('tells whether a message has HTML, and reads a text as its UTF-8 bytes', async () => {
    const db = await open(engine)
    const box = await inbox(db)
    const plain = await message(db, box, { text: 'héllo 👋' })
    const rich = await message(db, box, { html: '<p>hi</p>' })
    const rows = await selectMessagesWithContent(db)
      .select(['message.id', hasHtml(db), asUtf8Bytes(db, sql<string | null>`message_content.text`).as('bytes')])
      .orderBy('message.id').execute()
    expect(rows.map((r) => [r.id, Number(r.has_html)])).toEqual([[plain, 0], [rich, 1]])
    const bytes = rows[0]!.bytes as string | Buffer
    expect(Buffer.from(bytes)).toEqual(Buffer.from('héllo 👋'))
    // SQLite hands the bytes over undecoded: no JavaScript string of the text is made.
    if (engine === 'sqlite') expect(Buffer.isBuffer(bytes)).toBe(true)
    expect(rows[1]!.bytes).toBeNull()
  })

  it('filters messages by search conditions and by ids left out', async () => {
    const db = await open(engine)
    const box = await inbox(db)
    const withCode = await message(db, box, { subject: 'Your code', text: 'use 123456', codes: ['123456'] })
    const other = await message(db, box, { subject: 'Newsletter', text: 'nothing here' })
    const ids = (where: ReturnType<typeof matchesAll>) => selectMessagesWithContent(db).select('message.id').where(where).orderBy('message.id').execute()
    expect(await ids(matchesAll(db, [{ kind: 'has_code' }]))).toEqual([{ id: withCode }])
    expect(await ids(matchesAll(db, [{ kind: 'words', value: 'NEWSLETTER' }]))).toEqual([{ id: other }])
    expect(await ids(matchesAll(db, [{ kind: 'has_code', negate: true }, { kind: 'text', value: 'here' }]))).toEqual([{ id: other }])
    expect(await ids(matchesAll(db, []))).toEqual([{ id: withCode }, { id: other }])

    const left = (skip: number[]) => db.selectFrom('message').select('id').where(notAmongIds(db, 'message.id', skip)).orderBy('id').execute()
    expect(await left([withCode])).toEqual([{ id: other }])
    expect(await left([withCode, other, 999_999])).toEqual([])
    expect(await left(Array.from({ length: 5_000 }, (_, i) => other + 1 + i))).toEqual([{ id: withCode }, { id: other }])
  })

  it('reads the objects of a JSON array as rows', async () => {
    const db = await open(engine)
    const batch = JSON.stringify([{ id: 2, state: 'failed', code: null }, { id: 1, state: 'delivered', code: 200 }])
    const records = jsonRecords(db, batch, 'r', { id: 'bigint', state: 'text', code: 'integer' })
    const { rows } = await sql<{ id: number; state: string; code: number | null }>`SELECT r.id, r.state, r.code FROM ${records} ORDER BY r.id`.execute(db)
    expect(rows).toEqual([{ id: 1, state: 'delivered', code: 200 }, { id: 2, state: 'failed', code: null }])
  })

  it('shows the first header lines cut to the view limits, and none when they are not JSON', async () => {
    const db = await open(engine)
    const box = await inbox(db)
    const { valueChars, count } = VIEW_HEADER_LIMITS
    const long = 'x'.repeat(valueChars + 10)
    const lines = [['Subject', 'hi'], { name: 'X-Old', value: 'object form' }, ['X-Long', long], ...Array.from({ length: count }, (_, i) => [`X-${i}`, `${i}`])]
    const content = async (id: number) =>
      (await db.selectFrom('message').select('message_content_id').where('id', '=', id).executeTakeFirstOrThrow()).message_content_id
    const view = await findViewHeaders(db, await content(await message(db, box, { headers: JSON.stringify(lines) })))
    expect(view.more).toBe(true)
    expect(view.headers).toHaveLength(count)
    expect(view.headers.slice(0, 3)).toEqual([
      { name: 'Subject', value: 'hi', truncated: false },
      { name: 'X-Old', value: 'object form', truncated: false },
      { name: 'X-Long', value: long.slice(0, valueChars), truncated: true },
    ])
    const few = await findViewHeaders(db, await content(await message(db, box, { headers: '[["From","ann@example.test"]]' })))
    expect(few).toEqual({ headers: [{ name: 'From', value: 'ann@example.test', truncated: false }], more: false })
    expect(await findViewHeaders(db, await content(await message(db, box, { headers: 'not json' })))).toEqual({ headers: [], more: false })
  })

  it('says whether ids can commit out of order, and shares SMTP state across nodes only where several can run', async () => {
    const db = await open(engine)
    const storage = { engine: engineOf(db), db }
    expect(lateCommits(db)).toBe(engine === 'postgres')
    const faults = sharedFaultState(storage, { ttlMs: 60_000, maxPerClient: 10 })
    const guesses = sharedGuessWindow(storage, { limit: 1, windowMs: 60_000 })
    if (engine === 'sqlite') {
      expect([faults, guesses]).toEqual([null, null])
      return
    }
    expect(await faults!.tryAt(Buffer.from('k'), Buffer.from('c'), 1_000)).toEqual({ firstAt: 1_000, tries: 1 })
    expect(await faults!.tryAt(Buffer.from('k'), Buffer.from('c'), 2_000)).toEqual({ firstAt: 1_000, tries: 2 })
    expect((await guesses!.count(Buffer.from('c'), 1_000)).newlyBlocked).toBe(false)
    expect(await guesses!.count(Buffer.from('c'), 2_000)).toEqual({ blockedUntil: 62_000, newlyBlocked: true })
  })
})
