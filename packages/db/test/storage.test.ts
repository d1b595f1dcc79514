import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { insertMessage, migrateToLatest, NO_LIMITS, openStorage, refusalKindOf, UNICODE_LOWER, VIEW_HEADER_LIMITS, type ChangeEvent, type DeleteEvent, type MessageToStore, type NewMail, type Storage, type StorageConfig } from '../src/index.js'
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

/** A received message as mail-ingest hands it to the writer. */
function incoming(subject: string, inboxIds: number[], body = 'body', envelope?: object): MessageToStore {
  const raw = Buffer.from(`Subject: ${subject}\r\n\r\n${body}\r\n`)
  return {
    inboxIds,
    parsed: { from: { name: 'Ann', address: 'ann@example.test' }, recipients: [], subject, text: body, html: null, sentAt: null, headers: [], attachments: [] },
    source: { raw, bodyIsText: false, size: raw.length },
    receivedAt: Date.now(),
    derived: { version: 1, preview: body.slice(0, 100), htmlText: null, codes: [], links: [], safeHtml: null, hasRemoteContent: false, htmlWithheld: null },
    envelope,
  }
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
    // Verdicts skip SQLite's fsync on the writer's connection; its message commits after them must be durable again (FULL).
    if (engine === 'sqlite') expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(storage.db)).rows).toEqual([{ synchronous: 2 }])
    // On PostgreSQL they turn synchronous_commit off for their own transaction only: the pool's sessions stay durable.
    if (engine === 'postgres') expect((await sql<{ setting: string }>`SELECT current_setting('synchronous_commit') AS setting`.execute(storage.db)).rows).toEqual([{ setting: 'on' }])
    expect(await storage.settleLeftoverChecks(5678)).toBe(1)
    expect(await storage.db.selectFrom('message_auth').select(['status', 'checked_at']).where('message_content_id', '=', second!).executeTakeFirst()).toEqual({ status: 'unknown', checked_at: 5678 })
    // A message to an inbox that does not exist fails the whole batch: nothing of it is stored.
    await expect(write([message('three'), { ...message('orphan'), inboxIds: [id + 99] }])).rejects.toThrow()
    expect((await storage.db.selectFrom('message').select('subject').execute()).map((r) => r.subject)).toEqual(['one', 'two'])
  })

  it('refuses what would take an inbox past its quota, saying whether all or some of the inboxes are full', async () => {
    const full = await inbox('full')
    const roomy = await inbox('roomy')
    const write = storage.messageWriter({ ...NO_LIMITS, maxMessagesPerInbox: 2 })
    await write([incoming('one', [full]), incoming('two', [full])])
    const refusal = async (inboxIds: number[]) => refusalKindOf(await write([incoming('more', inboxIds)]).then(() => null, (e: unknown) => e))
    expect(await refusal([full])).toBe('mailbox_full')
    expect(await refusal([full, roomy])).toBe('some_mailboxes_full')
    // The batch's earlier messages count: a batch that would overfill an inbox is refused whole.
    expect(refusalKindOf(await write([incoming('a', [roomy]), incoming('b', [roomy]), incoming('c', [roomy])]).catch((e: unknown) => e))).toBe('mailbox_full')
    expect(await storage.findActiveInbox('roomy@tempbox.test', Date.now())).toMatchObject({ messageCount: 0, bytesUsed: 0 })
    const bytes = storage.messageWriter({ ...NO_LIMITS, maxInboxBytes: 50 })
    expect(refusalKindOf(await bytes([incoming('big', [roomy], 'x'.repeat(60))]).catch((e: unknown) => e))).toBe('mailbox_full')
    expect(await storage.findActiveInbox('full@tempbox.test', Date.now())).toMatchObject({ messageCount: 2 })
  })

  it('refuses mail when the store reached its size cap', async () => {
    const id = await inbox('box')
    const write = storage.messageWriter({ ...NO_LIMITS, maxDatabaseBytes: await storage.databaseBytes() })
    const big = randomBytes(200_000).toString('base64')
    expect(refusalKindOf(await write([incoming('big', [id], big)]).catch((e: unknown) => e))).toBe('storage_full')
    expect(await storage.db.selectFrom('message').select('id').execute()).toEqual([])
  })

  it('stores a message to several inboxes once, with its attachments, text and HTML given as bytes, and counts it in each', async () => {
    const a = await inbox('a')
    const b = await inbox('b')
    const message = incoming('shared', [a, b])
    message.parsed.text = Buffer.from('Grüße 🎉\nzwei\n')
    message.parsed.html = Buffer.from('<p>Grüße 🎉</p>')
    message.parsed.attachments = [
      { filename: 'x.bin', contentType: 'application/octet-stream', size: 3, contentId: 'c1', isInline: true, content: Buffer.from([0, 255, 1]) },
      { filename: 'y.txt', contentType: 'text/plain', size: 2, contentId: null, isInline: false, content: Buffer.from('hi') },
    ]
    const [contentId] = await storage.messageWriter()([message])
    const rows = await storage.db.selectFrom('message').select(['inbox_id', 'message_content_id', 'subject', 'size', 'attachment_count']).orderBy('inbox_id').execute()
    expect(rows).toEqual([a, b].map((inbox_id) => ({ inbox_id, message_content_id: contentId, subject: 'shared', size: message.source.size, attachment_count: 2 })))
    const content = await storage.db.selectFrom('message_content').select(['id', 'text', 'html', 'raw']).execute()
    expect(content).toEqual([{ id: contentId, text: 'Grüße 🎉\nzwei\n', html: '<p>Grüße 🎉</p>', raw: message.source.raw }])
    const attachments = await storage.db.selectFrom('attachment').select(['message_content_id', 'position', 'filename', 'content_id', 'is_inline', 'content']).orderBy('position').execute()
    expect(attachments).toEqual([
      { message_content_id: contentId, position: 0, filename: 'x.bin', content_id: 'c1', is_inline: 1, content: Buffer.from([0, 255, 1]) },
      { message_content_id: contentId, position: 1, filename: 'y.txt', content_id: null, is_inline: 0, content: Buffer.from('hi') },
    ])
    for (const address of ['a@tempbox.test', 'b@tempbox.test']) {
      expect(await storage.findActiveInbox(address, Date.now())).toMatchObject({ messageCount: 1, bytesUsed: message.source.size })
    }
  })

  it('stores the header lines a view can show, and one more of each: no more lines, no longer values, raw kept whole', async () => {
    const a = await inbox('a')
    const message = incoming('many headers', [a])
    const { count, valueChars } = VIEW_HEADER_LIMITS
    const emoji = '🎉'.repeat(valueChars + 10)
    message.parsed.headers = [['From', `${'<'.repeat(1_000_000)}`], ['X-Emoji', emoji], ...Array.from({ length: 1_000 }, (_, i): [string, string] => [`X-Line-${i}`, 'v'])]
    const [contentId] = await storage.messageWriter()([message])
    const row = await storage.db.selectFrom('message_content').select(['headers', 'raw']).where('id', '=', contentId!).executeTakeFirstOrThrow()
    const stored = JSON.parse(row.headers) as [string, string][]
    expect(stored).toHaveLength(count + 1)
    expect(stored[0]).toEqual(['From', '<'.repeat(valueChars + 1)])
    // Cut as SQL's substr counts: characters, a pair of surrogates being one.
    expect(stored[1]).toEqual(['X-Emoji', '🎉'.repeat(valueChars + 1)])
    expect(stored.slice(2)).toEqual(message.parsed.headers.slice(2, count + 1))
    expect(row.raw).toEqual(message.source.raw)
  })

  it('counts a batch in its inboxes and queues its webhook deliveries in message order, up to the per-inbox cap', async () => {
    const hooked = await inbox('hooked')
    const plain = await inbox('plain')
    const webhook = await storage.db.insertInto('webhook').values({ inbox_id: hooked, url: 'https://hooks.example.test/in', secret: 's', created_at: 1 }).returning('id').executeTakeFirstOrThrow()
    await storage.db.updateTable('webhook_queue').set({ max_pending_per_inbox: 2 }).execute()
    const batch = [incoming('h1', [hooked]), incoming('p1', [plain]), incoming('h2', [hooked, plain]), incoming('h3', [hooked]), incoming('h4', [hooked])]
    await storage.messageWriter()(batch)
    const deliveries = await storage.db.selectFrom('webhook_delivery').innerJoin('message', 'message.id', 'webhook_delivery.message_id')
      .select(['message.subject', 'webhook_delivery.state', 'webhook_delivery.webhook_id']).orderBy('webhook_delivery.id').execute()
    expect(deliveries).toEqual([['h1', 'pending'], ['h2', 'pending'], ['h3', 'dropped'], ['h4', 'dropped']].map(([subject, state]) => ({ subject, state, webhook_id: webhook.id })))
    expect(await storage.db.selectFrom('webhook').select('pending').executeTakeFirstOrThrow()).toEqual({ pending: 2 })
    expect(await storage.db.selectFrom('webhook_queue').select(['pending', 'dropped']).executeTakeFirstOrThrow()).toEqual({ pending: 2, dropped: 2 })
    const size = (subjects: string[]) => batch.filter((m) => subjects.includes(m.parsed.subject)).reduce((sum, m) => sum + m.source.size, 0)
    expect(await storage.findActiveInbox('hooked@tempbox.test', Date.now())).toMatchObject({ messageCount: 4, bytesUsed: size(['h1', 'h2', 'h3', 'h4']) })
    expect(await storage.findActiveInbox('plain@tempbox.test', Date.now())).toMatchObject({ messageCount: 2, bytesUsed: size(['p1', 'h2']) })
  })

  it('stores a batch with more attachments than one statement takes whole, or none of it', async () => {
    const id = await inbox('many')
    const withAttachments = (subject: string, count: number) => {
      const message = incoming(subject, [id])
      message.parsed.attachments = Array.from({ length: count }, (_, k) => (
        { filename: `${subject}-${k}.txt`, contentType: 'text/plain', size: 1, contentId: null, isInline: false, content: Buffer.from([k % 256]) }))
      return message
    }
    const write = storage.messageWriter()
    const [first, second] = await write([withAttachments('first', 700), withAttachments('second', 700)])
    const stored = await storage.db.selectFrom('attachment').select(['message_content_id', 'position', 'filename']).orderBy('message_content_id').orderBy('position').execute()
    expect(stored).toEqual([[first, 'first'], [second, 'second']].flatMap(([contentId, subject]) =>
      Array.from({ length: 700 }, (_, position) => ({ message_content_id: contentId, position, filename: `${subject}-${position}.txt` }))))
    await expect(write([withAttachments('third', 1100), { ...incoming('orphan', [id + 99]) }])).rejects.toThrow()
    expect(await storage.db.selectFrom('attachment').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).toEqual({ n: 1400 })
    expect((await storage.db.selectFrom('message').select('subject').orderBy('id').execute()).map((r) => r.subject)).toEqual(['first', 'second'])
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

  it('stores a NUL a sender put in text as U+FFFD (PostgreSQL text cannot hold it) and keeps the raw bytes exact', async () => {
    const id = await inbox('box')
    const message = incoming('a\0b', [id], 'x\0y')
    message.source = { raw: Buffer.from('Subject: a\0b\r\n\r\n'), bodyIsText: true, size: 20 }
    message.parsed.text = Buffer.from('x\0y')
    const [contentId] = await storage.messageWriter()([message])
    expect(await storage.db.selectFrom('message_content').select(['text', 'raw', 'preview']).where('id', '=', contentId!).executeTakeFirst())
      .toEqual({ text: 'x\uFFFDy', raw: message.source.raw, preview: 'x\uFFFDy' })
    expect(await storage.db.selectFrom('message').select('subject').executeTakeFirst()).toEqual({ subject: 'a\uFFFDb' })
  })

  it('stores big bodies whole and uncompressed, so the server spends no CPU on compressing them', async () => {
    const id = await inbox('big')
    const body = 'compressible line of mail text\n'.repeat(4000)
    const [contentId] = await storage.messageWriter()([incoming('big', [id], body)])
    const row = await sql<{ text: string; raw_compression: string | null; text_compression: string | null }>`
      SELECT text, pg_column_compression(raw) AS raw_compression, pg_column_compression(text) AS text_compression
      FROM message_content WHERE id = ${contentId}`.execute(storage.db)
    expect(row.rows[0]).toEqual({ text: body, raw_compression: null, text_compression: null })
  })

  it("runs a background loop on this storage's pool: no server session of its own, and closing it keeps the pool", async () => {
    const sessions = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database()`.execute(storage.db)).rows[0]!.n)
    const before = await sessions()
    const loop = storage.backgroundDb({ busyTimeoutMs: 50 })
    await inbox('loop')
    expect(await loop.db.selectFrom('inbox').select('local_part').execute()).toEqual([{ local_part: 'loop' }])
    expect(await sessions()).toBe(before)
    await loop.close()
    await expect(storage.ping()).resolves.toBeUndefined()
  })

  it('fails the readiness probe when its server does not answer', async () => {
    const url = new URL(config.url!)
    url.port = '1'
    const down = other({ url: url.toString() })
    await expect(down.ping()).rejects.toThrow()
  })
})

describe('PostgreSQL change notification', () => {
  beforeEach(() => open('postgres'))

  /** The listening session of the storage opened first (the only one LISTENing in this database). */
  async function listenerPid(): Promise<number | undefined> {
    const { rows } = await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`.execute(storage.db)
    return rows[0]?.pid
  }

  it("hears another storage's committed mail with its ids, and nothing of a batch rolled back", async () => {
    const heard: unknown[] = []
    const signal = await storage.watchNewMail((mail) => heard.push(mail))
    const id = await inbox('box')
    const writer = other()
    const write = writer.messageWriter()
    expect(signal.changed()).toBe(false)
    await expect(write([incoming('lost', [id]), incoming('orphan', [id + 99])])).rejects.toThrow()
    await write([incoming('kept', [id])])
    const [kept] = await storage.db.selectFrom('message').select('id').execute()
    await vi.waitFor(() => expect(heard).toHaveLength(1))
    // Notifications arrive in commit order: the first one heard is the kept message's, so the rolled-back batch sent none.
    expect(heard).toEqual([{ messages: [[kept!.id, id]] }])
    expect(signal.changed()).toBe(true)
    expect(signal.changed()).toBe(false)
    signal.close()
  })

  it('names every message of a batch too large for one notification, in several', async () => {
    const heard: (NewMail | null)[] = []
    const signal = await storage.watchNewMail((mail) => heard.push(mail))
    const id = await inbox('box')
    await other().messageWriter()(Array.from({ length: 320 }, (_, i) => incoming(`m${i}`, [id])))
    const stored = (await storage.db.selectFrom('message').select('id').orderBy('id').execute()).map((r) => [r.id, id])
    await vi.waitFor(() => expect(heard.flatMap((m) => m?.messages ?? []).sort((a, b) => a[0]! - b[0]!)).toEqual(stored))
    expect(heard.length).toBe(3)
    signal.close()
  })

  it('hears deleted messages and inboxes, whoever deletes them', async () => {
    const events: DeleteEvent[] = []
    const watch = await storage.watchDeletes((event) => events.push(event))
    const id = await inbox('box')
    const [contentId] = await storage.messageWriter()([incoming('one', [id])])
    const { id: messageId } = await storage.db.selectFrom('message').select('id').where('message_content_id', '=', contentId!).executeTakeFirstOrThrow()
    const deleter = other()
    await deleter.db.deleteFrom('message').where('id', '=', messageId).execute()
    await vi.waitFor(() => expect(events).toEqual([{ type: 'messages', messages: [[messageId, id]] }]))
    await deleter.db.deleteFrom('inbox').where('id', '=', id).execute()
    await vi.waitFor(() => expect(events.at(-1)).toEqual({ type: 'inboxes', inboxIds: [id] }))
    watch.close()
  })

  it('hears read-state changes and inbox updates from their commits: none rolled back, none for other columns', async () => {
    const events: ChangeEvent[] = []
    const watch = await storage.watchChanges((event) => events.push(event))
    const id = await inbox('box')
    const elsewhere = await inbox('other')
    // Storing mail updates the inbox's quota counters: no change notification for that.
    await storage.messageWriter()([incoming('one', [id]), incoming('two', [id])])
    const messages = storage.db.selectFrom('message').select('id').where('inbox_id', '=', id)
    const writer = other()
    await writer.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('message').set({ read_at: 1 }).where('inbox_id', '=', id).execute()
        await trx.updateTable('inbox').set({ burn: 'read' }).where('id', '=', id).execute()
        throw new Error('rolled back')
      })
      .catch(() => undefined)
    // Other columns, or the value a row already has, change nothing cached.
    await writer.db.updateTable('inbox').set({ burn: null, message_count: 2 }).where('id', '=', id).execute()
    await writer.db.updateTable('message').set({ read_at: null }).where('inbox_id', '=', id).execute()
    // Two messages marked read in one statement: one notification for their inbox.
    await writer.db.updateTable('message').set({ read_at: Date.now() }).where('id', 'in', messages).execute()
    await writer.db.updateTable('inbox').set({ expires_at: Date.now() + 2 * HOUR }).where('id', '=', elsewhere).execute()
    await vi.waitFor(() => expect(events).toHaveLength(2))
    // Notifications arrive in commit order: the first heard is the committed read, so the rolled-back ones sent nothing.
    expect(events).toEqual([{ type: 'readState', inboxId: id }, { type: 'inbox', inboxId: elsewhere }])
    await writer.db.updateTable('inbox').set({ user_id: null, burn: 'timer' }).where('id', '=', id).execute()
    await vi.waitFor(() => expect(events.at(-1)).toEqual({ type: 'inbox', inboxId: id }))
    watch.close()
  })

  it('says "re-read" rather than name more deletions than a notification holds', async () => {
    const events: DeleteEvent[] = []
    const watch = await storage.watchDeletes((event) => events.push(event))
    const now = Date.now()
    await storage.db.insertInto('inbox').values(Array.from({ length: 200 }, (_, i) => ({ address: `n${i}@tempbox.test`, local_part: `n${i}`, domain: 'tempbox.test', created_at: now, expires_at: now + HOUR }))).execute()
    await other().db.deleteFrom('inbox').execute()
    await vi.waitFor(() => expect(events).toEqual([{ type: 'unknown' }]))
    watch.close()
  })

  it('reconnects after losing its listening connection, says everything may have changed, and hears new mail again', async () => {
    const heard: unknown[] = []
    const deletes: DeleteEvent[] = []
    const signal = await storage.watchNewMail((mail) => heard.push(mail))
    const watch = await storage.watchDeletes((event) => deletes.push(event))
    const changes: ChangeEvent[] = []
    const changeWatch = await storage.watchChanges((event) => changes.push(event))
    const first = await listenerPid()
    expect(first).toEqual(expect.any(Number))
    expect(signal.deafSince()).toBeNull()
    await sql`SELECT pg_terminate_backend(${first})`.execute(other().db)
    await vi.waitFor(async () => expect(await listenerPid()).not.toBe(first), { timeout: 10_000, interval: 50 })
    await vi.waitFor(() => expect(deletes).toEqual([{ type: 'unknown' }]))
    expect(changes).toEqual([{ type: 'unknown' }])
    // Listening again (the api's readiness test keeps it from reconnecting, and sees the time it went deaf).
    expect(signal.deafSince()).toBeNull()
    expect(heard).toEqual([null])
    expect(signal.changed()).toBe(true)
    const id = await inbox('box')
    await other().messageWriter()([incoming('after', [id])])
    await vi.waitFor(() => expect(heard).toHaveLength(2))
    expect(signal.changed()).toBe(true)
    signal.close()
    watch.close()
    changeWatch.close()
  })
})

describe('SQLite storage', () => {
  beforeEach(() => open('sqlite'))

  it('gives a background loop a connection of its own that waits briefly for the write lock and skips the fsync', async () => {
    const pragma = async (db: Storage['db'], name: string) => Object.values((await sql.raw<Record<string, number>>(`pragma ${name}`).execute(db)).rows[0]!)[0]
    const loop = storage.backgroundDb({ busyTimeoutMs: 50 })
    expect([await pragma(loop.db, 'synchronous'), await pragma(loop.db, 'busy_timeout')]).toEqual([1, 50])
    expect(await pragma(storage.db, 'synchronous')).toBe(2)
    await inbox('loop')
    expect(await loop.db.selectFrom('inbox').select('local_part').execute()).toEqual([{ local_part: 'loop' }])
    await loop.close()
    await expect(storage.ping()).resolves.toBeUndefined()
  })

  it("stores a long text's head, as SQL's substr cuts it, so the api's first view of it reads no more (none for a short text)", async () => {
    const box = await inbox('heads')
    const texts: (string | Buffer)[] = [
      'short',
      `${'é'.repeat(6)}🎉😀 and the rest`, // 2- and 4-byte characters around the cut
      Buffer.from(`ab${'€'.repeat(4)}🎉x and the rest as bytes`),
      '€€€', // nine bytes but three characters: the head is the whole text, stored all the same
    ]
    const write = storage.messageWriter({ ...NO_LIMITS, textHeadChars: 8 })
    const ids = await write(texts.map((text, i) => ({ ...incoming(`t${i}`, [box]), parsed: { ...incoming(`t${i}`, [box]).parsed, text } })))
    const heads = await storage.db
      .selectFrom('message_content')
      .leftJoin('message_text_head', 'message_text_head.message_content_id', 'message_content.id')
      .select(['message_content.id', 'message_text_head.text as head', sql<string>`substr(message_content.text, 1, 9)`.as('substr')])
      .where('message_content.id', 'in', ids)
      .orderBy('message_content.id')
      .execute()
    expect(heads.map((h) => h.head)).toEqual([null, 'éééééé🎉😀 ', 'ab€€€€🎉x ', '€€€'])
    for (const h of heads.slice(1)) expect(h.head).toBe(h.substr)
  })

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

})
