import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Db } from '@tempbox/db'
import { ENGINES, migratedPostgresDatabase } from '@tempbox/db/testing'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase, startIngest, type TestDatabase } from './test-ingest.js'
import { dmarcReject, plainMail, signingDomain, signMail } from '../../../tests/support/dkim.js'

const DOMAIN = 'tempbox.test'
/** The check runs after the 250, on its own thread: at load 12+ on 2 cores it took over 15 s. Only bounds a hang. */
const CHECKED = { timeout: 60_000 }
const github = signingDomain('github.com')
/** The engine under test's database: a database of its own on the run's PostgreSQL, or the SQLite file. */
let database: TestDatabase
let db: Db

async function withIngest(env: Record<string, string>, run: (send: (raw: string, to: string) => Promise<void>) => Promise<void>) {
  const { port, close } = await startIngest(database, {
    SMTP_CLOSE_TIMEOUT_MS: '0', MAIL_DOMAINS: DOMAIN, MAIL_AUTH_DNS_FIXTURE: join(database.dir, 'dns.json'), ...env,
  }, { ownConnection: true })
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, name: 'mail.github.com' })
  try {
    await run(async (raw, to) => {
      await transport.sendMail({ envelope: { from: 'bounce@github.com', to }, raw })
    })
  } finally {
    await close()
  }
}

async function createInbox(localPart: string): Promise<string> {
  await db.insertInto('inbox').values({ address: `${localPart}@${DOMAIN}`, local_part: localPart, domain: DOMAIN, created_at: Date.now(), expires_at: Date.now() + 3_600_000 }).execute()
  return `${localPart}@${DOMAIN}`
}

async function authOf(address: string) {
  return db.selectFrom('message')
    .innerJoin('inbox', 'inbox.id', 'message.inbox_id')
    .leftJoin('message_auth', 'message_auth.message_content_id', 'message.message_content_id')
    .select(['message_auth.status', 'message_auth.details', 'message_auth.authentication_results'])
    .where('inbox.address', '=', address)
    .executeTakeFirst()
}

describe.each(ENGINES)('the sender check over SMTP, on %s', { timeout: 120_000 }, (engine) => {
  beforeAll(async () => {
    database = await openTestDatabase('mail-auth-smtp', engine === 'postgres' ? await migratedPostgresDatabase('mail_auth') : undefined)
    writeFileSync(join(database.dir, 'dns.json'), JSON.stringify({ ...github.zone, ...dmarcReject('github.com') }))
    db = database.db
  })

  afterAll(() => database.close())

  it('stores pass for a signed mail once checked, after the 250 (parse and store workers)', async () => {
    const to = await createInbox('signed-mail')
    await withIngest({}, async (send) => {
      await send(await signMail(plainMail('GitHub <noreply@github.com>', to, 'Signed'), github), to)
      // Acknowledged: the row exists already, checking or checked.
      expect(['checking', 'pass']).toContain((await authOf(to))?.status)
      await expect.poll(async () => (await authOf(to))?.status, CHECKED).toBe('pass')
    })
    const row = await authOf(to)
    expect(JSON.parse(row!.details!)).toMatchObject({ fromDomain: 'github.com', spf: { domain: 'github.com' } })
    expect(row!.authentication_results).toContain('smtp.helo=mail.github.com')
  })

  it('stores none for an unsigned mail when ingest parses on the SMTP thread', async () => {
    const to = await createInbox('unsigned-mail')
    await withIngest({ SMTP_PARSE_WORKERS: '0' }, async (send) => {
      await send(plainMail('Someone <someone@no-policy.example>', to, 'Unsigned'), to)
      await expect.poll(async () => (await authOf(to))?.status, CHECKED).toBe('none')
    })
  })

  it('stores no verdict with MAIL_AUTH=off', async () => {
    const to = await createInbox('unchecked-mail')
    await withIngest({ MAIL_AUTH: 'off' }, async (send) => {
      await send(plainMail('Someone <someone@no-policy.example>', to, 'Unchecked'), to)
    })
    expect(await authOf(to)).toEqual({ status: null, details: null, authentication_results: null })
  })

  it('marks a check left unanswered by the last run unknown at start, and checks this run\'s first mail', async () => {
    const before = await createInbox('left-by-last-run')
    await withIngest({}, async (send) => {
      await send(plainMail('Someone <someone@no-policy.example>', before, 'Earlier'), before)
      await expect.poll(async () => (await authOf(before))?.status, CHECKED).toBe('none')
    })
    // What a process stopped between the commit and the verdict leaves behind.
    await db.updateTable('message_auth').set({ status: 'checking', checked_at: null }).execute()
    const to = await createInbox('first-of-this-run')
    await withIngest({}, async (send) => {
      expect((await authOf(before))?.status).toBe('unknown')
      await send(await signMail(plainMail('GitHub <noreply@github.com>', to, 'Signed'), github), to)
      await expect.poll(async () => (await authOf(to))?.status, CHECKED).toBe('pass')
    })
    expect((await authOf(before))?.status).toBe('unknown')
  })
})
