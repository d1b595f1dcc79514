import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type SQLite from 'better-sqlite3'
import { Migrator, sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { createDb, createPostgresDb, findMatchesAfter, insertMessage, migrateToLatest, openStorage, searchInboxPage, type Db, type MessageCondition } from '../src/index.js'
import { migrationProviderFor } from '../src/migrations/index.js'
import { openSearchIndexForWriting, searchIndexPath } from '../src/search/index-file.js'
import { indexSearchStep } from '../src/search/indexer.js'
import { openSearchIndexer } from '../src/search/own-thread-indexer.js'
import { ENGINES, freshPostgresDatabase, type TestEngine } from '../src/testing/index.js'

const open: Db[] = []
const dirs: string[] = []
/** The SQLite database file of each db opened here, for its indexer. */
const files = new Map<Db, { sqlite: SQLite.Database; path: string }>()
afterEach(async () => {
  for (const db of open.splice(0)) await db.destroy()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A database at the schema just before the search index (2026_11_28_000601); SQLite's in a file, as its index is. */
async function beforeIndex(engine: TestEngine): Promise<Db> {
  let db: Db
  if (engine === 'postgres') db = createPostgresDb({ url: await freshPostgresDatabase() })
  else {
    const dir = mkdtempSync(join(tmpdir(), 'tempbox-search-'))
    dirs.push(dir)
    const path = join(dir, 'tempbox.sqlite')
    const opened = createDb({ path })
    db = opened.db
    files.set(db, { sqlite: opened.sqlite, path })
  }
  open.push(db)
  const migrator = new Migrator({ db, provider: migrationProviderFor(engine), allowUnorderedMigrations: true })
  expect((await migrator.migrateTo('2026_11_28_000501_delivery_log')).error).toBeUndefined()
  return db
}

/** Runs SQLite's indexer (mail-ingest's thread does it in the service) until it has caught up; PostgreSQL's is its own. */
function indexAll(db: Db): void {
  const file = files.get(db)
  if (!file) return
  const index = openSearchIndexForWriting(searchIndexPath(file.path)!)
  try {
    while (indexSearchStep(file.sqlite, index, { rows: 2, chars: 1_000_000, deletions: 2 }).more);
  } finally {
    index.close()
  }
}

/** The content ids SQLite's index file holds for a trigram. */
function indexEntries(db: Db, gram: string): number[] {
  const index = openSearchIndexForWriting(searchIndexPath(files.get(db)!.path)!)
  try {
    return (index.prepare('SELECT rowid FROM message_search_index WHERE message_search_index MATCH ?').all(`"${gram}"`) as { rowid: number }[]).map((r) => r.rowid)
  } finally {
    index.close()
  }
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
    // Found before the indexer has run (their copies are read), and after it has caught up.
    for (const step of ['not yet indexed', 'indexed']) {
      if (step === 'indexed') indexAll(db)
      expect(await found(db, inbox, words('ÜBERWEISUNG'))).toEqual([old])
      expect(await found(db, inbox, words('straße'))).toEqual([late])
      expect(await found(db, inbox, words('bücherei'))).toEqual([late, old])
      expect(await found(db, inbox, words('nirgendwo'))).toEqual([])
    }

    if (engine === 'sqlite') {
      expect(indexEntries(db, 'köl')).toHaveLength(1)
      // Its words are mail: private like the database, with its -wal and -shm.
      for (const suffix of ['', '-wal', '-shm']) expect(statSync(`${files.get(db)!.path}-search${suffix}`).mode & 0o777).toBe(0o600)
    }
    await db.deleteFrom('message').where('id', '=', old).execute()
    expect(await found(db, inbox, words('köln'))).toEqual([])
    indexAll(db)
    expect(await found(db, inbox, words('köln'))).toEqual([])
    if (engine === 'sqlite') {
      // Contentless: the entry itself is gone with its copy, not only hidden by the join; the queue is emptied.
      expect(indexEntries(db, 'köl')).toEqual([])
      expect(indexEntries(db, 'caf')).toHaveLength(1)
      expect(files.get(db)!.sqlite.prepare('SELECT count(*) AS n FROM message_search_unindexed').get()).toEqual({ n: 0 })
    } else {
      const index = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE indexname = 'message_search_trgm'`.execute(db)
      expect(index.rows).toEqual([{ indexname: 'message_search_trgm' }])
    }
  })

  it('finds indexed mail and mail the indexer has not reached yet in one search, page after page', async () => {
    const db = await beforeIndex(engine)
    await migrateToLatest(db)
    const inbox = await addInbox(db, 'mixed')
    const other = await addInbox(db, 'other')
    const early = [await store(db, inbox, 'Angebot eins', 'für Sie'), await store(db, inbox, 'Anderes', 'nichts')]
    indexAll(db)
    const late = await store(db, inbox, 'Angebot zwei', 'für Sie')
    await store(db, other, 'Angebot drei', 'not this inbox')
    expect(await found(db, inbox, words('angebot'))).toEqual([late, early[0]])
    const first = await searchInboxPage(db, inbox, [words('ANGEBOT')], { limit: 1, before: null, budgetMs: 60_000 })
    expect(first).toMatchObject({ ids: [late], total: 2, cut: false })
    const second = await searchInboxPage(db, inbox, [words('ANGEBOT')], { limit: 1, before: first.nextBefore, budgetMs: 60_000 })
    expect(second).toMatchObject({ ids: [early[0]], nextBefore: null })
    // A term only the other inbox's unindexed mail holds: nothing here, answered without reading this inbox's copies.
    expect(await found(db, inbox, words('drei'))).toEqual([])
  })

  it('matches exactly the substrings a scan matches: across words, never across fields, wildcards taken literally', async () => {
    const db = await beforeIndex(engine)
    await migrateToLatest(db)
    const inbox = await addInbox(db, 'exact')
    const a = await store(db, inbox, 'Zebra', 'bracket: 100%_off [x]* "quoted" 😀🎉 party, ﬁle')
    const b = await store(db, inbox, 'mañana', 'at the café')
    const c = await store(db, inbox, 'café closed', 'nothing else')
    // Copies read (nothing indexed yet), then the index's candidates: the same answers.
    for (const indexed of [false, true]) {
      if (indexed) indexAll(db)
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
    }
  })

  it('gives a wait the oldest matches after `since`, as many as it asks for, short terms and long', async () => {
    const db = await beforeIndex(engine)
    await migrateToLatest(db)
    const inbox = await addInbox(db, 'waiter')
    const a = await store(db, inbox, 'Café one', 'first')
    await store(db, inbox, 'Other', 'second')
    const c = await store(db, inbox, 'Café two', 'third')
    const d = await store(db, inbox, 'Café three', 'fourth')
    indexAll(db)
    const wait = (after: number, value: string, limit: number) => findMatchesAfter(db, inbox, after, [{ kind: 'subject', value }], { limit, budgetMs: 60_000 })
    expect(await wait(a, 'CAFÉ', 2)).toEqual([c, d])
    expect(await wait(0, 'ca', 1)).toEqual([a])
    expect(await wait(d, 'café', 1)).toEqual([])
  })
})

describe('the search index file on SQLite', () => {
  it('starts over when the database is older than the index (a restored backup)', async () => {
    const db = await beforeIndex('sqlite')
    await migrateToLatest(db)
    const inbox = await addInbox(db, 'restored')
    const kept = await store(db, inbox, 'Kept', 'from before the backup')
    const lost = [await store(db, inbox, 'Lost one', 'after the backup'), await store(db, inbox, 'Lost two', 'after the backup')]
    indexAll(db)
    // The backup: taken when the first message was the last; the index file beside it stayed as it was.
    const { sqlite } = files.get(db)!
    await db.deleteFrom('message').where('id', 'in', lost).execute()
    sqlite.prepare(`UPDATE sqlite_sequence SET seq = (SELECT max(id) FROM message_content) WHERE name = 'message_content'`).run()
    const fresh = await store(db, inbox, 'Fresh', 'arrived after the restore')
    expect(await found(db, inbox, words('fresh'))).toEqual([fresh])
    indexAll(db)
    expect(await found(db, inbox, words('fresh'))).toEqual([fresh])
    expect(await found(db, inbox, words('backup'))).toEqual([kept])
    expect(indexEntries(db, 'fre')).toHaveLength(1)
    expect(indexEntries(db, 'los')).toEqual([])
  })

  it('says how far it is behind: contents past its mark and deletions still queued, for the operators\' metric', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempbox-search-'))
    dirs.push(dir)
    const storage = openStorage({ path: join(dir, 'tempbox.sqlite') })
    try {
      await migrateToLatest(storage.db)
      expect(await storage.searchIndexBacklog()).toEqual({ contents: 0, deletions: 0 })
      const inbox = await addInbox(storage.db, 'lagging')
      const ids = [await store(storage.db, inbox, 'One', 'a'), await store(storage.db, inbox, 'Two', 'b'), await store(storage.db, inbox, 'Three', 'c')]
      expect(await storage.searchIndexBacklog()).toEqual({ contents: 3, deletions: 0 })
      while ((await storage.indexSearchStep())?.more);
      expect(await storage.searchIndexBacklog()).toEqual({ contents: 0, deletions: 0 })
      await storage.db.deleteFrom('message').where('id', 'in', ids.slice(0, 2)).execute()
      expect(await storage.searchIndexBacklog()).toEqual({ contents: 0, deletions: 2 })
      while ((await storage.indexSearchStep())?.more);
      expect(await storage.searchIndexBacklog()).toEqual({ contents: 0, deletions: 0 })
      await store(storage.db, inbox, 'Four', 'd')
      expect(await storage.searchIndexBacklog()).toEqual({ contents: 1, deletions: 0 })
    } finally {
      await storage.close()
    }
  })

  it('is filled through connections of its own, as a thread that only indexes opens them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempbox-search-'))
    dirs.push(dir)
    const path = join(dir, 'tempbox.sqlite')
    expect(openSearchIndexer(':memory:')).toBeNull()
    const storage = openStorage({ path })
    const indexer = openSearchIndexer(path)!
    try {
      await migrateToLatest(storage.db)
      const inbox = await addInbox(storage.db, 'apart')
      const kept = await store(storage.db, inbox, 'Lieferung', 'nach Köln')
      const gone = await store(storage.db, inbox, 'Rechnung', 'aus Köln')
      const contentOf = async (id: number) => (await storage.db.selectFrom('message').select('message_content_id').where('id', '=', id).executeTakeFirstOrThrow()).message_content_id
      expect(await storage.searchIndexBacklog()).toEqual({ contents: 2, deletions: 0 })
      expect(indexer.step()).toEqual({ handled: 2, more: false })
      expect(indexer.step()).toEqual({ handled: 0, more: false })
      expect(await storage.searchIndexBacklog()).toEqual({ contents: 0, deletions: 0 })
      await storage.db.deleteFrom('message').where('id', '=', gone).execute()
      expect(indexer.step()).toEqual({ handled: 1, more: false })
      // The index file as the API reads it: only the mail still there holds the term.
      const index = openSearchIndexForWriting(searchIndexPath(path)!)
      try {
        const holding = (index.prepare('SELECT rowid FROM message_search_index WHERE message_search_index MATCH ?').all('"köl"') as { rowid: number }[]).map((r) => r.rowid)
        expect(holding).toEqual([await contentOf(kept)])
      } finally {
        index.close()
      }
      expect(await found(storage.db, inbox, words('köln'))).toEqual([kept])
    } finally {
      indexer.close()
      await storage.close()
    }
  })
  it('asks for the next step at once only when a step stopped at one of its limits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempbox-search-'))
    dirs.push(dir)
    const path = join(dir, 'tempbox.sqlite')
    const storage = openStorage({ path })
    const indexer = openSearchIndexer(path, { rows: 2, chars: 40, deletions: 2 })!
    try {
      await migrateToLatest(storage.db)
      const inbox = await addInbox(storage.db, 'paced')
      const short = [await store(storage.db, inbox, 'A', 'eins'), await store(storage.db, inbox, 'B', 'zwei'), await store(storage.db, inbox, 'C', 'drei')]
      expect(indexer.step()).toEqual({ handled: 2, more: true })
      expect(indexer.step()).toEqual({ handled: 1, more: false })
      // A copy past the step's characters is indexed alone, and the indexer told to go on.
      await store(storage.db, inbox, 'Long', 'a text of more than forty characters, folded for search')
      await store(storage.db, inbox, 'D', 'vier')
      expect(indexer.step()).toEqual({ handled: 1, more: true })
      expect(indexer.step()).toEqual({ handled: 1, more: false })
      await storage.db.deleteFrom('message').where('id', 'in', short).execute()
      expect(indexer.step()).toEqual({ handled: 2, more: true })
      expect(indexer.step()).toEqual({ handled: 1, more: false })
      expect(indexer.step()).toEqual({ handled: 0, more: false })
      expect(await storage.searchIndexBacklog()).toEqual({ contents: 0, deletions: 0 })
    } finally {
      indexer.close()
      await storage.close()
    }
  })
})
