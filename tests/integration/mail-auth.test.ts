import { createDb, type Db } from '@tempbox/db'
import type { FullMessage, InboxResponse } from '@tempbox/types'
import { readdirSync } from 'node:fs'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dmarcReject, plainMail, signingDomain, signMail } from '../support/dkim.js'
import { writeDnsFixture } from '../support/dns-fixture.js'
import { startStack, type Stack } from '../support/stack.js'

const github = signingDomain('github.com')
const attacker = signingDomain('attacker.example')
const dns = writeDnsFixture({ ...github.zone, ...dmarcReject('github.com'), ...attacker.zone, ...dmarcReject('paypal.com') })
let stack: Stack
let db: Db

beforeAll(async () => {
  stack = await startStack({ env: { MAIL_AUTH_DNS_FIXTURE: dns.path } })
  db = createDb({ path: stack.dbPath }).db
})
afterAll(async () => {
  await db?.destroy()
  await stack?.stop()
  dns.remove()
})

async function makeInbox(local: string): Promise<string> {
  const address = `${local}@${stack.mailDomain}`
  const now = Date.now()
  await db.insertInto('inbox').values({ address, local_part: local, domain: stack.mailDomain, created_at: now, expires_at: now + 3_600_000 }).execute()
  return address
}

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`)
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** Sends over real SMTP as the sender's server would (its HELO name and bounce address), then reads the message's check. */
async function deliverAndCheck(raw: string, local: string, mailFrom: string): Promise<FullMessage['auth']> {
  const to = await makeInbox(local)
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true, name: `mail.${mailFrom.split('@')[1]}` })
  const sent = await transport.sendMail({ envelope: { from: mailFrom, to }, raw })
  expect(sent.response).toMatch(/^250/)
  const { messages } = await api<InboxResponse>(`/api/email/${to}`)
  const url = `/api/email/${to}/messages/${messages[0]!.id}`
  await expect.poll(async () => (await api<FullMessage>(url)).auth?.status, { timeout: 30_000 }).not.toBe('checking')
  return (await api<FullMessage>(url)).auth
}

/** The threads of the running mail-ingest process (Linux /proc). */
const ingestThreads = () => readdirSync(`/proc/${stack.ingest.child.pid}/task`).length

describe('who really sent it, over real SMTP', { timeout: 120_000 }, () => {
  it('starts its checking thread with the first message to check, not with ingest', async () => {
    // Nothing received yet: no thread holds mailauth (stacks store on the SMTP thread, SMTP_PARSE_WORKERS=0).
    const idle = ingestThreads()
    const auth = await deliverAndCheck(plainMail('Someone <someone@first.example>', 'x', 'First'), 'first', 'someone@first.example')
    expect(auth).toMatchObject({ status: 'none' })
    expect(ingestThreads()).toBeGreaterThan(idle)
  })

  it('stores pass for a mail signed by the domain in its From, with the Authentication-Results text', async () => {
    const auth = await deliverAndCheck(await signMail(plainMail('GitHub <noreply@github.com>', 'x', 'Your code 123456'), github), 'signed', 'bounce@github.com')
    expect(auth).toMatchObject({
      status: 'pass',
      fromDomain: 'github.com',
      dkim: [{ result: 'pass', domain: 'github.com', aligned: true }],
      dmarc: { result: 'pass', domain: 'github.com' },
      spf: { domain: 'github.com' },
    })
    expect(auth!.authenticationResults).toMatch(/dkim=pass header\.i=@github\.com[\s\S]*smtp\.mailfrom=bounce@github\.com[\s\S]*dmarc=pass/)
  })

  it('stores fail for a mail claiming paypal.com signed by another domain', async () => {
    const auth = await deliverAndCheck(await signMail(plainMail('PayPal <service@paypal.com>', 'x', 'Account locked'), attacker), 'phished', 'bounce@attacker.example')
    expect(auth).toMatchObject({ status: 'fail', fromDomain: 'paypal.com', dmarc: { result: 'fail', policy: 'reject' } })
  })

  it('stores none for an unsigned mail', async () => {
    const auth = await deliverAndCheck(plainMail('Someone <someone@no-policy.example>', 'x', 'Hello'), 'unsigned', 'someone@no-policy.example')
    expect(auth).toMatchObject({ status: 'none', dkim: [] })
  })
})
