import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { insertMessage, migrateToLatest, openStorage, UNICODE_LOWER, type Storage, type StorageConfig } from '../src/index.js'
import { ENGINES, freshPostgresDatabase, type TestEngine } from '../src/testing/index.js'

const HOUR = 3_600_000
let dir: string
let config: StorageConfig
let storage: Storage
const opened: Storage[] = []

/** Another process's connection to the same database, as mail-ingest's beside the API's. */
function other(extra: Partial<StorageConfig> = {}): Storage {
  const s = openStorage({ ...config, ...extra })
  opened.push(s)
  return s
}

async function inbox(local: string, fields: { expiresAt?: number; burn?: 'read' | 'timer' | null } = {}): Promise<number> {
  const now = Date.now()
  const row = await storage.db
    .insertInto('inbox')
    .values({ address: `${local}@tempbox.test`, local_part: local, domain: 'tempbox.test', created_at: now, expires_at: fields.expiresAt ?? now + HOUR, burn: fields.burn ?? null })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

async function open(engine: TestEngine): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'tempbox-storage-'))
  config = { path: join(dir, 'tempbox.sqlite'), url: engine === 'postgres' ? await freshPostgresDatabase('storage') : undefined }
  storage = openStorage(config)
  await migrateToLatest(storage.db)
}

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close()
  await storage.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A stored message with a sender check pending, as the ingest writer leaves it; gives its content id. */
async function checkingMessage(inboxId: number, subject: string): Promise<number> {
  const [messageId] = await insertMessage(storage.db, [inboxId], {
    content: { recipients: '[]', headers: '[]', text: 'hi', html: null, raw: Buffer.from(`Subject: ${subject}\r\n\r\nhi\r\n`), derived_version: null, html_text: null, safe_html: null, html_withheld: null },
    listing: { from_name: '', from_address: 'a@example.test', subject, sent_at: null, received_at: Date.now(), size: 20, attachment_count: 0 },
  })
  const { message_content_id } = await storage.db.selectFrom('message').select('message_content_id').where('id', '=', messageId!).executeTakeFirstOrThrow()
  await storage.db.insertInto('message_auth').values({ message_content_id, status: 'checking' }).execute()
  return message_content_id
}

describe.each(ENGINES)('storage on %s', (engine) => {
  beforeEach(() => open(engine))

  it('names its engine and answers the readiness probe', async () => {
    expect(storage.engine).toBe(engine)
    await expect(storage.ping()).resolves.toBeUndefined()
  })

  it('finds an active inbox with what it holds, never an expired one, and says when it burns on read', async () => {
    const id = await inbox('live')
    await insertMessage(storage.db, [id], {
      content: { recipients: '[]', headers: '[]', text: 'hi', html: null, raw: Buffer.from('Subject: x\r\n\r\nhi\r\n'), derived_version: null, html_text: null, safe_html: null, html_withheld: null },
      listing: { from_name: '', from_address: 'a@example.test', subject: 'x', sent_at: null, received_at: Date.now(), size: 20, attachment_count: 0 },
    })
    await inbox('gone', { expiresAt: Date.now() - 1 })
    await inbox('once', { burn: 'read' })
    const now = Date.now()
    expect(await storage.findActiveInbox('live@tempbox.test', now)).toEqual({ id, expiresAt: expect.any(Number), messageCount: 1, bytesUsed: 20, burnsOnRead: false })
    expect(await storage.findActiveInbox('gone@tempbox.test', now)).toBeNull()
    expect(await storage.findActiveInbox('nobody@tempbox.test', now)).toBeNull()
    expect((await storage.findActiveInbox('once@tempbox.test', now))?.burnsOnRead).toBe(true)
  })

  it('writes verdicts over their checking rows in one batch, skips deleted messages, and settles leftovers', async () => {
    const id = await inbox('box')
    const first = await checkingMessage(id, 'one')
    const second = await checkingMessage(id, 'two')
    const statuses = () => storage.db.selectFrom('message_auth').select(['message_content_id', 'status']).orderBy('message_content_id').execute()
    await storage.writeVerdicts([[first, { status: 'pass', details: '{}', authenticationResults: 'spf=pass' }], [second + 99, { status: 'fail', details: null, authenticationResults: null }]], 1234)
    expect(await statuses()).toEqual([{ message_content_id: first, status: 'pass' }, { message_content_id: second, status: 'checking' }])
    expect(await storage.db.selectFrom('message_auth').select(['details', 'authentication_results', 'checked_at']).where('message_content_id', '=', first).executeTakeFirst())
      .toEqual({ details: '{}', authentication_results: 'spf=pass', checked_at: 1234 })
    expect(await storage.settleLeftoverChecks(5678)).toBe(1)
    expect(await storage.db.selectFrom('message_auth').select(['status', 'checked_at']).where('message_content_id', '=', second).executeTakeFirst()).toEqual({ status: 'unknown', checked_at: 5678 })
  })

  it('measures the data it holds, checkpoints without error, and reports the free disk', async () => {
    const before = await storage.databaseBytes()
    // Random text: PostgreSQL would compress a repeated character to almost nothing.
    await storage.db.insertInto('contact_message').values({ name: 'x', email: 'x@example.test', subject: 'x', message: randomBytes(150_000).toString('base64'), status: 'new', submitted_at: 1 }).execute()
    await storage.checkpoint()
    // About the 200 KB written (whole pages, some of them free ones reused).
    expect(await storage.databaseBytes()).toBeGreaterThan(before + 150_000)
    // PostgreSQL's disk is the server's, not this process's.
    expect(await storage.freeDiskBytes()).toEqual(engine === 'postgres' ? Infinity : expect.any(Number))
    expect(await storage.freeDiskBytes()).toBeGreaterThan(0)
  })

  it('lower-cases by Unicode rules in SQL through the shared function name', async () => {
    const { rows } = await sql<{ lowered: string }>`select ${sql.raw(UNICODE_LOWER)}('ÜBER É') as lowered`.execute(storage.db)
    expect(rows).toEqual([{ lowered: 'über é' }])
  })
})

describe('PostgreSQL storage', () => {
  beforeEach(() => open('postgres'))

  it('commits durably by default and only a durable: false storage turns synchronous_commit off for its sessions', async () => {
    const setting = async (s: Storage) => (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(s.db)).rows[0]!.synchronous_commit
    const relaxed = other({ durable: false, poolSize: 2 })
    // Several sessions of the relaxed pool at once: each has the setting from its start.
    expect(await Promise.all([setting(relaxed), setting(relaxed)])).toEqual(['off', 'off'])
    expect(await setting(storage)).toBe('on')
  })

  it('fails the readiness probe when its server does not answer', async () => {
    const url = new URL(config.url!)
    url.port = '1'
    const down = other({ url: url.toString() })
    await expect(down.ping()).rejects.toThrow()
  })
})

describe('SQLite storage', () => {
  beforeEach(() => open('sqlite'))

  it("signals another connection's commits, once each, and not its own process's reads", async () => {
    const signal = await storage.watchNewMail()
    try {
      expect(signal.changed()).toBe(false)
      const writer = other()
      await writer.db.insertInto('inbox').values({ address: 'a@tempbox.test', local_part: 'a', domain: 'tempbox.test', created_at: 1, expires_at: Date.now() + HOUR }).execute()
      expect(signal.changed()).toBe(true)
      expect(signal.changed()).toBe(false)
      await storage.db.selectFrom('inbox').selectAll().execute()
      expect(signal.changed()).toBe(false)
    } finally {
      signal.close()
    }
  })

  it('writes a batch of messages in one commit and their verdicts over the checking rows; settles leftovers', async () => {
    const id = await inbox('box')
    const write = storage.messageWriter()
    const message = (subject: string) => ({
      inboxIds: [id],
      parsed: { from: { name: 'Ann', address: 'ann@example.test' }, recipients: [], subject, text: 'body', html: null, sentAt: null, headers: [] as [string, string][], attachments: [] },
      source: { raw: Buffer.from(`Subject: ${subject}\r\n\r\nbody\r\n`), bodyIsText: false, size: 30 },
      receivedAt: Date.now(),
      derived: { version: 1, preview: 'body', htmlText: null, codes: [], links: [], safeHtml: null, hasRemoteContent: false, htmlWithheld: null },
      envelope: {},
    })
    const [first, second] = await write([message('one'), message('two')])
    const statuses = () => storage.db.selectFrom('message_auth').select(['message_content_id', 'status']).orderBy('message_content_id').execute()
    expect(await statuses()).toEqual([{ message_content_id: first, status: 'checking' }, { message_content_id: second, status: 'checking' }])
    await storage.writeVerdicts([[first!, { status: 'pass', details: '{}', authenticationResults: 'spf=pass' }]], 1234)
    expect(await statuses()).toEqual([{ message_content_id: first, status: 'pass' }, { message_content_id: second, status: 'checking' }])
    expect(await storage.settleLeftoverChecks(5678)).toBe(1)
    expect(await storage.db.selectFrom('message_auth').select(['status', 'checked_at']).where('message_content_id', '=', second!).executeTakeFirst()).toEqual({ status: 'unknown', checked_at: 5678 })
    // A message to an inbox that does not exist fails the whole batch: nothing of it is stored.
    await expect(write([message('three'), { ...message('orphan'), inboxIds: [id + 99] }])).rejects.toThrow()
    expect((await storage.db.selectFrom('message').select('subject').execute()).map((r) => r.subject)).toEqual(['one', 'two'])
  })

})
