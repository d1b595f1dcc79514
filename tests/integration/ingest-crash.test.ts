import { randomBytes } from 'node:crypto'
import { createDb, createPostgresDb, fullSource, migrateToLatest, selectMessagesWithContent, type Db } from '@tempbox/db'
import { createTestDatabase, startPostgres, type PostgresServer } from '@tempbox/db/testing'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startIngestNode, startStack, waitFor, type IngestNode } from '../support/stack.js'

/** Parallel SMTP sessions writing while the process is killed. */
const CONNECTIONS = 6
/** Kill once this many messages were acknowledged, so the kill lands mid-stream. */
const ACKS_BEFORE_KILL = 60

/** Where mail-ingest runs and stores: the whole stack on a SQLite file, or ingest alone on PostgreSQL. */
interface Target {
  smtpPort: number
  mailDomain: string
  ingest: { stop: (signal?: NodeJS.Signals) => Promise<void> }
  restartIngest: () => Promise<unknown>
  stop: () => Promise<void>
}

let stack: Target
/** Other ingest nodes on the same database, which go on taking mail while `stack`'s is killed. */
let peers: IngestNode[] = []
let db: Db
let postgres: PostgresServer | undefined

type Setup = 'sqlite' | 'postgres' | 'postgres, two ingest nodes'

/** A multipart message with a random attachment, CRLF line ends and no line starting with a dot. */
function buildMessage(to: string, id: string): { raw: Buffer; attachment: Buffer } {
  const attachment = randomBytes(2048 + Math.floor(Math.random() * 30_000))
  const base64 = attachment.toString('base64').replace(/.{76}/g, '$&\r\n')
  const raw = Buffer.from(
    `From: Crash Test <crash@sender.test>\r\nTo: <${to}>\r\nSubject: crash ${id}\r\nMessage-ID: <${id}@sender.test>\r\n` +
      'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n' +
      `--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMessage ${id}\r\n` +
      `--b1\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="${id}.bin"\r\n` +
      `Content-Transfer-Encoding: base64\r\n\r\n${base64}\r\n--b1--\r\n`,
  )
  return { raw, attachment }
}

async function open(setup: Setup): Promise<void> {
  if (setup === 'sqlite') {
    const full = await startStack({ parseWorkers: true })
    stack = full
    db = createDb({ path: full.dbPath }).db
  } else {
    postgres = await startPostgres()
    const url = await createTestDatabase(postgres.url, 'crash')
    db = createPostgresDb({ url })
    await migrateToLatest(db)
    stack = await startIngestNode(url)
    if (setup === 'postgres, two ingest nodes') peers = [await startIngestNode(url)]
  }
  const now = Date.now()
  await db
    .insertInto('inbox')
    .values(Array.from({ length: CONNECTIONS }, (_, i) => ({ address: `crash${i}@${stack.mailDomain}`, local_part: `crash${i}`, domain: stack.mailDomain, created_at: now, expires_at: now + 3_600_000 })))
    .execute()
}

async function close(): Promise<void> {
  await db?.destroy()
  for (const peer of peers.splice(0)) await peer.stop()
  await stack?.stop()
  await postgres?.stop()
  postgres = undefined
}

// The limit only bounds a hang: restarting ingest beside a second node can take over a minute on a busy 2-core machine.
describe.each<Setup>(['sqlite', 'postgres', 'postgres, two ingest nodes'])('mail ingest on %s killed with SIGKILL mid-stream', { timeout: 300_000 }, (setup) => {
  beforeAll(() => open(setup))
  afterAll(close)

  it('keeps every message it acknowledged with 250, whole, and accepts mail again after a restart', async () => {
    const acked = new Map<string, { to: string; raw: Buffer; attachment: Buffer }>()
    let isKilled = false
    const sender = async (worker: number) => {
      const to = `crash${worker}@${stack.mailDomain}`
      // With two nodes, every other sender talks to the one that is not killed: it goes on storing meanwhile.
      const nodes = [stack.smtpPort, ...peers.map((p) => p.smtpPort)]
      const port = nodes[worker % nodes.length]!
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: true, maxConnections: 1 })
      try {
        for (let n = 0; !isKilled; n++) {
          const id = `w${worker}-${n}`
          const message = buildMessage(to, id)
          try {
            const info = await transport.sendMail({ envelope: { from: 'crash@sender.test', to: [to] }, raw: message.raw })
            if (info.response.startsWith('250')) acked.set(id, { to, ...message })
          } catch {
            return // the server died under us: this message was never acknowledged
          }
        }
      } finally {
        transport.close()
      }
    }
    const senders = Array.from({ length: CONNECTIONS }, (_, worker) => sender(worker))
    await waitFor(() => acked.size >= ACKS_BEFORE_KILL, 30_000, 'messages to be acknowledged')
    await stack.ingest.stop('SIGKILL')
    isKilled = true
    await Promise.all(senders)
    expect(acked.size).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL)

    await stack.restartIngest()
    const rows = await selectMessagesWithContent(db)
      .innerJoin('inbox', 'inbox.id', 'message.inbox_id')
      .select(['message.id', 'message.message_content_id', 'message.subject', 'raw', 'text', 'raw_body_is_text', 'message.size', 'message.attachment_count', 'inbox.address'])
      .where('message.subject', 'like', 'crash %')
      .execute()
    const bySubject = new Map(rows.map((row) => [row.subject, row]))
    for (const [id, sent] of acked) {
      const row = bySubject.get(`crash ${id}`)
      expect(row, `acknowledged message ${id} is missing`).toBeDefined()
      expect(row!.address).toBe(sent.to)
      expect(fullSource(row!).equals(sent.raw), `raw bytes of ${id} differ`).toBe(true)
      expect(row!.size).toBe(sent.raw.length)
      expect(row!.attachment_count).toBe(1)
      const attachment = await db.selectFrom('attachment').select(['filename', 'content']).where('message_content_id', '=', row!.message_content_id).executeTakeFirstOrThrow()
      expect(attachment.filename).toBe(`${id}.bin`)
      expect(attachment.content.equals(sent.attachment)).toBe(true)
    }

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
    const after = await transport.sendMail({ from: 'crash@sender.test', to: `crash0@${stack.mailDomain}`, subject: 'after restart', text: 'still here' })
    expect(after.response).toMatch(/^250 /)
  })
})
