import { randomBytes } from 'node:crypto'
import { createPostgresDb, migrateToLatest, type Db } from '@tempbox/db'
import { createTestDatabase, startPostgres, type PostgresServer } from '@tempbox/db/testing'
import { sql } from 'kysely'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApiNode, startIngestNode, waitFor, type ApiNode, type IngestNode } from '../support/stack.js'

/**
 * Tempbox as several nodes on one PostgreSQL: two mail-ingest processes and two api processes, each started as its
 * own node would be (own ports, own data folder, nothing shared but DATABASE_URL and JWT_SECRET). What one node
 * does, every other node must see. (Killing one ingest node under load is ingest-crash.test.ts's
 * "postgres, two ingest nodes".)
 */
const MAIL_DOMAIN = 'nodes.test'
const MAX_ACTIVE = 5

let postgres: PostgresServer
let db: Db
const ingest: IngestNode[] = []
const api: ApiNode[] = []

beforeAll(async () => {
  postgres = await startPostgres()
  const url = await createTestDatabase(postgres.url, 'nodes')
  db = createPostgresDb({ url })
  await migrateToLatest(db)
  const jwtSecret = randomBytes(32).toString('hex')
  const env = { SWEEP_INTERVAL_SECONDS: '1', MAX_ACTIVE_ADDRESSES_PER_IP: String(MAX_ACTIVE), MAX_GENERATED_PER_HOUR_PER_IP: '100' }
  // One at a time: four TypeScript processes starting at once on two cores only slow each other down.
  for (let i = 0; i < 2; i++) ingest.push(await startIngestNode(url, { mailDomain: MAIL_DOMAIN }))
  for (let i = 0; i < 2; i++) api.push(await startApiNode(url, { mailDomain: MAIL_DOMAIN, jwtSecret, env }))
}, 600_000)

afterAll(async () => {
  await Promise.all([...api, ...ingest].map((node) => node.stop()))
  await db?.destroy()
  await postgres?.stop()
}, 120_000)

async function generate(node: ApiNode): Promise<Response> {
  return fetch(`${node.apiUrl}/api/email/generate`, { method: 'POST' })
}

async function newAddress(node: ApiNode): Promise<string> {
  const res = await generate(node)
  expect(res.status).toBe(200)
  return ((await res.json()) as { email: string }).email
}

async function release(node: ApiNode, address: string): Promise<void> {
  expect((await fetch(`${node.apiUrl}/api/email/${address}`, { method: 'DELETE' })).status).toBe(200)
}

/** Sends over real SMTP to the given ingest node; resolves when it answered 250 (the message is committed). */
async function send(node: IngestNode, to: string, subject: string, text: string): Promise<void> {
  const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: node.smtpPort, secure: false, ignoreTLS: true })
  try {
    const info = await smtp.sendMail({ from: 'Acme <no-reply@acme.test>', to, subject, text })
    expect(info.response).toMatch(/^250/)
  } finally {
    smtp.close()
  }
}

/** An open SSE stream of one inbox on one node, read as text. */
async function openStream(node: ApiNode, address: string) {
  const controller = new AbortController()
  const res = await fetch(`${node.apiUrl}/api/email/${address}/events`, { signal: controller.signal })
  expect(res.headers.get('content-type')).toContain('text/event-stream')
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let received = ''
  const stream = {
    /** Everything received after the first `event: <name>` block whose text contains `needle`. */
    async until(name: string, needle = ''): Promise<string> {
      for (;;) {
        const blocks = received.split('\n\n').slice(0, -1)
        const block = blocks.find((b) => b.includes(`event: ${name}`) && b.includes(needle))
        if (block) return block
        const { value, done } = await reader.read()
        if (done) throw new Error(`stream ended before ${name} ${needle}:\n${received}`)
        received += decoder.decode(value, { stream: true })
      }
    },
    close: () => controller.abort(),
  }
  await stream.until('ready')
  return stream
}

describe('several nodes on one PostgreSQL', { timeout: 180_000 }, () => {
  it('shows mail taken by ingest A on api B over SSE and answers a wait on api A', async () => {
    const address = await newAddress(api[0]!)
    const stream = await openStream(api[1]!, address)
    // since=0: the inbox's first message, whether the wait or the mail gets there first.
    const waited = fetch(`${api[0]!.apiUrl}/api/email/${address}/wait?timeout=60&since=0&subject=reset`)
    await send(ingest[0]!, address, 'Password reset', 'Your reset code is 482913.')

    const block = await stream.until('message', 'Password reset')
    const pushed = JSON.parse(/data: (.*)/.exec(block)![1]!) as { message: { subject: string; fromAddress: string } }
    expect(pushed.message).toMatchObject({ subject: 'Password reset', fromAddress: 'no-reply@acme.test' })
    const res = await waited
    expect(res.status).toBe(200)
    const body = (await res.json()) as { timedOut: boolean; message: { subject: string; verification: { codes: string[] } } }
    expect(body.timedOut).toBe(false)
    expect(body.message).toMatchObject({ subject: 'Password reset', verification: { codes: ['482913'] } })
    stream.close()
    await release(api[0]!, address)
  })

  it('takes mail on either ingest node into the same inbox, listed alike by both api nodes', async () => {
    const address = await newAddress(api[1]!)
    await send(ingest[0]!, address, 'via A', 'first')
    await send(ingest[1]!, address, 'via B', 'second')
    for (const node of api) {
      const res = await fetch(`${node.apiUrl}/api/email/${address}`)
      expect(res.status).toBe(200)
      const listing = (await res.json()) as { messages: { subject: string }[] }
      expect(listing.messages.map((m) => m.subject).sort()).toEqual(['via A', 'via B'])
    }
    await release(api[1]!, address)
  })

  it('removes a message deleted on api B from api A: gone from its listing, and its open stream is told', async () => {
    const address = await newAddress(api[0]!)
    await send(ingest[1]!, address, 'Delete me', 'soon gone')
    const listed = (await (await fetch(`${api[0]!.apiUrl}/api/email/${address}`)).json()) as { messages: { id: string; subject: string }[] }
    const id = listed.messages.find((m) => m.subject === 'Delete me')!.id
    const stream = await openStream(api[0]!, address)

    expect((await fetch(`${api[1]!.apiUrl}/api/email/${address}/messages/${id}`, { method: 'DELETE' })).status).toBe(204)

    await stream.until('deleted', `"id":"${id}"`)
    const after = (await (await fetch(`${api[0]!.apiUrl}/api/email/${address}`)).json()) as { messages: unknown[] }
    expect(after.messages).toEqual([])
    expect((await fetch(`${api[0]!.apiUrl}/api/email/${address}/messages/${id}`)).status).toBe(404)
    stream.close()
    await release(api[0]!, address)
  })

  it('holds the active-address limit for one client across both api nodes', async () => {
    const made: { node: ApiNode; address: string }[] = []
    for (let i = 0; i < MAX_ACTIVE; i++) {
      const node = api[i % 2]!
      made.push({ node, address: await newAddress(node) })
    }
    for (const node of api) {
      const res = await generate(node)
      expect(res.status).toBe(429)
      const body = (await res.json()) as { error: string; code: string }
      expect(body.code).toBe('too_many_active_addresses')
      expect(body.error).toBe(`You already have ${MAX_ACTIVE} active addresses. Release one you no longer need, or wait until one expires.`)
    }
    // A place released on one node is free on the other.
    await release(api[0]!, made[0]!.address)
    expect((await generate(api[1]!)).status).toBe(200)
  })

  it('runs the expiry sweep on one node at a time, and on the other once the first is gone', async () => {
    const heldLocks = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted`.execute(db)).rows[0]!.n
    // Both nodes are up and try for the lock every few seconds; only one may hold it.
    await waitFor(async () => (await heldLocks()) === 1, 30_000, 'one node to lead')
    expect(await heldLocks()).toBe(1)

    const expireOne = async (local: string) => {
      const now = Date.now()
      await db.insertInto('inbox').values({ address: `${local}@${MAIL_DOMAIN}`, local_part: local, domain: MAIL_DOMAIN, created_at: now - 7_200_000, expires_at: now - 1 }).execute()
      await waitFor(async () => !(await db.selectFrom('inbox').select('id').where('address', '=', `${local}@${MAIL_DOMAIN}`).executeTakeFirst()), 60_000, `${local} to be swept`)
    }
    await expireOne('expired-while-two')

    // Whichever node led, stopping api A leaves B: it must take over the sweep.
    const [first] = api.splice(0, 1)
    await first!.stop()
    await waitFor(async () => (await heldLocks()) === 1, 60_000, 'api B to lead')
    await expireOne('expired-after-one-left')
  })
})
