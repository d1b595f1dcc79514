import { Migrator, sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { createDb, createPostgresDb, findMatchesAfter, insertMessage, migrateToLatest, searchInboxPage, type Db, type MessageCondition } from '../src/index.js'
import { migrationProviderFor } from '../src/migrations/index.js'
import { ENGINES, freshPostgresDatabase, type TestEngine } from '../src/testing/index.js'

const open: Db[] = []
afterEach(async () => {
  for (const db of open.splice(0)) await db.destroy()
})

/** A database at the schema just before the search index (2026_11_28_000601). */
async function beforeIndex(engine: TestEngine): Promise<Db> {
  const db = engine === 'postgres' ? createPostgresDb({ url: await freshPostgresDatabase() }) : createDb({ path: ':memory:' }).db
  open.push(db)
  const migrator = new Migrator({ db, provider: migrationProviderFor(engine), allowUnorderedMigrations: true })
  expect((await migrator.migrateTo('2026_11_28_000501_delivery_log')).error).toBeUndefined()
  return db
}

async function addInbox(db: Db, name: string): Promise<number> {
  const now = Date.now()
  const row = await db
    .insertInto('inbox')
    .values({ address: `${name}@tempbox.test`, local_part: name, domain: 'tempbox.test', user_id: null, created_at: now, expires_at: now + 60_000 })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

async function store(db: Db, inboxId: number, subject: string, text: string): Promise<number> {
  const [id] = await insertMessage(db, [inboxId], {
    content: { recipients: '[]', headers: '[]', text, html: null, raw: Buffer.from(`Subject: ${subject}\r\n\r\n${text}`) },
    listing: { from_name: 'Bücherei', from_address: 'buch@example.test', subject, sent_at: null, received_at: Date.now(), size: 10 },
  })
  return id!
}

const found = async (db: Db, inboxId: number, ...conditions: MessageCondition[]) =>
  (await searchInboxPage(db, inboxId, conditions, { limit: 50, before: null, budgetMs: 60_000 })).ids
const words = (value: string, negate = false): MessageCondition => ({ kind: 'words', value, negate })

describe.each(ENGINES)('the search index on %s', (engine) => {
  it('holds the mail stored before its migration and what is stored after, and lets go of deleted mail', async () => {
    const db = await beforeIndex(engine)
    const inbox = await addInbox(db, 'reader')
    const old = await store(db, inbox, 'Überweisung bestätigt', 'Grüße aus Köln')
    await migrateToLatest(db)
    const late = await store(db, inbox, 'Rechnung', 'Das Café in der Straße')
    expect(await found(db, inbox, words('ÜBERWEISUNG'))).toEqual([old])
    expect(await found(db, inbox, words('straße'))).toEqual([late])
    expect(await found(db, inbox, words('bücherei'))).toEqual([late, old])

    await db.deleteFrom('message').where('id', '=', old).execute()
    expect(await found(db, inbox, words('köln'))).toEqual([])
    if (engine === 'sqlite') {
      // Contentless: the entry itself is gone with its copy, not only hidden by the join.
      const entries = await sql<{ rowid: number }>`SELECT rowid FROM message_search_index WHERE message_search_index MATCH '"köl"'`.execute(db)
      expect(entries.rows).toEqual([])
    } else {
      const index = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE indexname = 'message_search_trgm'`.execute(db)
      expect(index.rows).toEqual([{ indexname: 'message_search_trgm' }])
    }
  })

  it('matches exactly the substrings a scan matches: across words, never across fields, wildcards taken literally', async () => {
    const db = await beforeIndex(engine)
    await migrateToLatest(db)
    const inbox = await addInbox(db, 'exact')
    const a = await store(db, inbox, 'Zebra', 'bracket: 100%_off [x]* "quoted" 😀🎉 party, ﬁle')
    const b = await store(db, inbox, 'mañana', 'at the café')
    const c = await store(db, inbox, 'café closed', 'nothing else')
    expect(await found(db, inbox, words('t: 100%_o'))).toEqual([a])
    expect(await found(db, inbox, words('100%xoff'))).toEqual([])
    expect(await found(db, inbox, words('[x]*'))).toEqual([a])
    expect(await found(db, inbox, words('"quoted"'))).toEqual([a])
    expect(await found(db, inbox, words('😀🎉 p'))).toEqual([a])
    expect(await found(db, inbox, words('FILE'))).toEqual([a])
    // Every trigram of "zebracket" is in the message, split between subject and text: no match.
    expect(await found(db, inbox, words('zebracket'))).toEqual([])
    expect(await found(db, inbox, { kind: 'subject', value: 'café' })).toEqual([c])
    expect(await found(db, inbox, words('café'), words('MAÑANA', true))).toEqual([c])
    expect(await found(db, inbox, words('ña'))).toEqual([b])
    expect(await found(db, inbox, words('café'), words('at'))).toEqual([b])
  })

  it('gives a wait the oldest matches after `since`, as many as it asks for, short terms and long', async () => {
    const db = await beforeIndex(engine)
    await migrateToLatest(db)
    const inbox = await addInbox(db, 'waiter')
    const a = await store(db, inbox, 'Café one', 'first')
    await store(db, inbox, 'Other', 'second')
    const c = await store(db, inbox, 'Café two', 'third')
    const d = await store(db, inbox, 'Café three', 'fourth')
    const wait = (after: number, value: string, limit: number) => findMatchesAfter(db, inbox, after, [{ kind: 'subject', value }], { limit, budgetMs: 60_000 })
    expect(await wait(a, 'CAFÉ', 2)).toEqual([c, d])
    expect(await wait(0, 'ca', 1)).toEqual([a])
    expect(await wait(d, 'café', 1)).toEqual([])
  })
})
