import { Migrator } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { createDb, insertMessage, migrateToLatest, type Db } from '../src/index.js'
import { migrationProviderFor } from '../src/migrations/index.js'
import { ENGINES, freshTestDb, type TestEngine } from '../src/testing/index.js'

const open: Db[] = []
afterEach(async () => {
  for (const db of open.splice(0)) await db.destroy()
})

async function migratedDb(engine: TestEngine): Promise<Db> {
  const db = await freshTestDb(engine)
  open.push(db)
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

const message = {
  content: { recipients: '[]', headers: '[]', text: 'shared body', html: null, raw: Buffer.from('Subject: s\r\n\r\nshared body') },
  listing: { from_name: '', from_address: 'x@example.com', subject: 's', sent_at: null, received_at: Date.now(), size: 27 },
  attachments: [{ position: 0, filename: 'a.txt', content_type: 'text/plain', size: 1, content_id: null, is_inline: 0, content: Buffer.from('a') }],
}

const count = async (db: Db, table: 'message' | 'message_content' | 'attachment') =>
  Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)

describe.each(ENGINES)('on %s', (engine) => {
  describe('a message sent to several inboxes', () => {
    it('is stored once and listed in each inbox', async () => {
      const db = await migratedDb(engine)
      const inboxes = [await addInbox(db, 'a'), await addInbox(db, 'b'), await addInbox(db, 'c')]
      const ids = await insertMessage(db, inboxes, message)
      expect(ids).toHaveLength(3)
      expect(await count(db, 'message')).toBe(3)
      expect(await count(db, 'message_content')).toBe(1)
      expect(await count(db, 'attachment')).toBe(1)
    })

    it('stays in the other inboxes when deleted from one or when one address expires, and goes with the last', async () => {
      const db = await migratedDb(engine)
      const [a, b, c] = [await addInbox(db, 'a'), await addInbox(db, 'b'), await addInbox(db, 'c')]
      const [inA] = await insertMessage(db, [a, b, c], message)
      await db.deleteFrom('message').where('id', '=', inA!).execute()
      expect(await count(db, 'message_content')).toBe(1)
      await db.deleteFrom('inbox').where('id', '=', b).execute()
      expect(await count(db, 'message_content')).toBe(1)
      const left = await db
        .selectFrom('message')
        .innerJoin('message_content', 'message_content.id', 'message.message_content_id')
        .select(['message.inbox_id', 'message_content.text'])
        .execute()
      expect(left).toEqual([{ inbox_id: c, text: 'shared body' }])
      expect(await count(db, 'attachment')).toBe(1)
      await db.deleteFrom('inbox').where('id', '=', c).execute()
      expect(await count(db, 'message_content')).toBe(0)
      expect(await count(db, 'attachment')).toBe(0)
    })
  })

  describe('inbox quota counters', () => {
    it('count each inbox’s messages and bytes as they come and go', async () => {
      const db = await migratedDb(engine)
      const [a, b] = [await addInbox(db, 'a'), await addInbox(db, 'b')]
      const [inA] = await insertMessage(db, [a, b], message)
      await insertMessage(db, [a], message)
      const holds = async () => db.selectFrom('inbox').select(['id', 'message_count', 'bytes_used']).orderBy('id').execute()
      expect(await holds()).toEqual([{ id: a, message_count: 2, bytes_used: 54 }, { id: b, message_count: 1, bytes_used: 27 }])
      await db.deleteFrom('message').where('id', '=', inA!).execute()
      expect(await holds()).toEqual([{ id: a, message_count: 1, bytes_used: 27 }, { id: b, message_count: 1, bytes_used: 27 }])
    })
  })

})

describe('migration to stored-once content', () => {
  it('keeps every message, its source and its attachments', async () => {
    const { db } = createDb({ path: ':memory:' })
    open.push(db)
    const migrator = new Migrator({ db, provider: migrationProviderFor('sqlite') })
    const before = await migrator.migrateTo('2026_11_23_000008_short_link_owner_secret')
    expect(before.error).toBeUndefined()
    const inbox = await addInbox(db, 'old')
    const old = db as unknown as import('kysely').Kysely<any>
    const row = await old
      .insertInto('message')
      .values({
        inbox_id: inbox, from_name: 'N', from_address: 'n@example.com', recipients: '[{"name":"","address":"old@tempbox.test"}]', subject: 'old',
        text: 'body', html: '<p>body</p>', sent_at: 1, received_at: 2, size: 4, headers: '[["Subject","old"]]', raw: Buffer.from('Subject: old\r\n\r\n'),
        attachment_count: 1, raw_body_is_text: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await old
      .insertInto('attachment')
      .values({ message_id: row.id, position: 0, filename: 'f.txt', content_type: 'text/plain', size: 1, content_id: '<cid>', is_inline: 1, content: Buffer.from('f') })
      .execute()
    await migrateToLatest(db)
    const migrated = await db
      .selectFrom('message')
      .innerJoin('message_content', 'message_content.id', 'message.message_content_id')
      .selectAll('message')
      .select(['recipients', 'headers', 'text', 'html', 'raw', 'raw_body_is_text'])
      .executeTakeFirstOrThrow()
    expect(migrated).toMatchObject({
      id: row.id, inbox_id: inbox, subject: 'old', text: 'body', html: '<p>body</p>', sent_at: 1, received_at: 2, size: 4,
      headers: '[["Subject","old"]]', raw_body_is_text: 1, attachment_count: 1,
    })
    expect(migrated.raw.toString()).toBe('Subject: old\r\n\r\n')
    expect(await db.selectFrom('attachment').select(['message_content_id', 'content_id', 'is_inline']).execute()).toEqual([
      { message_content_id: migrated.message_content_id, content_id: '<cid>', is_inline: 1 },
    ])
  })
})

describe('migration of text heads to a table of their own', () => {
  it('moves each stored head, empties the old column, and a head goes with its message', async () => {
    const { db } = createDb({ path: ':memory:' })
    open.push(db)
    const migrator = new Migrator({ db, provider: migrationProviderFor('sqlite'), allowUnorderedMigrations: true })
    expect((await migrator.migrateTo('2026_11_24_001201_message_text_head')).error).toBeUndefined()
    const inbox = await addInbox(db, 'old')
    const old = db as unknown as import('kysely').Kysely<any>
    // Rows as that schema held them (insertMessage writes today's, search copy included).
    const insertOld = async (subject: string) => {
      const content = await old.insertInto('message_content').values(message.content).returning('id').executeTakeFirstOrThrow()
      const row = await old.insertInto('message').values({ ...message.listing, subject, inbox_id: inbox, message_content_id: content.id }).returning('id').executeTakeFirstOrThrow()
      return row.id as number
    }
    const withHead = await insertOld('s')
    await insertOld('ÜBER ﬁle')
    await old.updateTable('message_content').set({ text_head: 'shared' }).where('id', '=', 1).execute()
    await migrateToLatest(db)
    expect(await db.selectFrom('message_text_head').selectAll().execute()).toEqual([{ message_content_id: 1, text: 'shared' }])
    expect(await old.selectFrom('message_content').select('text_head').where('text_head', 'is not', null).execute()).toEqual([])
    // 2026_11_28_000101 gave the rows stored before it their search copy, folded (NFKC, lower case).
    expect(await db.selectFrom('message_search').select(['message_content_id', 'subject', 'body']).orderBy('message_content_id').execute()).toEqual([
      { message_content_id: 1, subject: 's', body: 'shared body' },
      { message_content_id: 2, subject: 'über file', body: 'shared body' },
    ])
    await db.deleteFrom('message').where('id', '=', withHead).execute()
    expect(await db.selectFrom('message_text_head').selectAll().execute()).toEqual([])
    expect(await db.selectFrom('message_search').select('message_content_id').execute()).toEqual([{ message_content_id: 2 }])
  })
})
