import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { insertMessage, migrateToLatest, openStorage, UNICODE_LOWER, type Storage } from '../src/index.js'

const HOUR = 3_600_000
let dir: string
let path: string
let storage: Storage
const opened: Storage[] = []

/** Another process's connection to the same file, as mail-ingest's beside the API's. */
function other(): Storage {
  const s = openStorage({ path })
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

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempbox-storage-'))
  path = join(dir, 'tempbox.sqlite')
  storage = openStorage({ path })
  await migrateToLatest(storage.db)
})

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close()
  await storage.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('SQLite storage', () => {
  it('answers the readiness probe', async () => {
    await expect(storage.ping()).resolves.toBeUndefined()
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

  it('measures the data it holds, checkpoints without error, and reports the free disk', async () => {
    const before = await storage.databaseBytes()
    await storage.db.insertInto('contact_message').values({ name: 'x', email: 'x@example.test', subject: 'x', message: 'y'.repeat(200_000), status: 'new', submitted_at: 1 }).execute()
    await storage.checkpoint()
    // About the 200 KB written (whole pages, some of them free ones reused).
    expect(await storage.databaseBytes()).toBeGreaterThan(before + 150_000)
    expect(await storage.freeDiskBytes()).toBeGreaterThan(0)
  })

  it('lower-cases by Unicode rules in SQL through the shared function name', async () => {
    const { rows } = await sql<{ lowered: string }>`select ${sql.raw(UNICODE_LOWER)}('ÜBER É') as lowered`.execute(storage.db)
    expect(rows).toEqual([{ lowered: 'über é' }])
  })
})
