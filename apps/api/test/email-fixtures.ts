import { openStorage, toStoredSource, type MessageToStore, type WriteMessages } from '@tempbox/db'
import { deriveParsed } from '@tempbox/mail-derive'
import type { App } from '../src/app.js'
import { storageConfig } from '../src/config.js'
import { nextTurn, onPostgres } from './helper.js'

export interface TestMail {
  subject?: string
  text?: string | null
  html?: string | null
  fromName?: string
  fromAddress?: string
  receivedAt?: number
  raw?: Buffer
  headers?: [string, string][]
  attachments?: { filename: string; contentType: string; content: Buffer; contentId?: string; inline?: boolean }[]
}

/** Creates an address through the API, as a user would. */
export async function generate(app: App, body?: Record<string, string>, ip = '203.0.113.7'): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/email/generate', payload: body, remoteAddress: ip })
  if (res.statusCode !== 200) throw new Error(`generate failed: ${res.statusCode} ${res.body}`)
  return (res.json() as { email: string }).email
}

/**
 * One storage per database (the SQLite file, or the app's PostgreSQL database), as mail-ingest's store worker holds
 * its own beside the api's: its commits reach the api as another node's or process's would.
 */
const ingestWriters = new Map<string, WriteMessages>()

function ingestWriter(app: App): WriteMessages {
  const key = app.config.databaseUrl ?? app.config.databasePath
  let write = ingestWriters.get(key)
  if (!write) {
    // One connection is what a store worker holds; an idle one closes by itself after the test.
    write = openStorage(storageConfig(app.config, { poolSize: 1 })).messageWriter()
    ingestWriters.set(key, write)
  }
  return write
}

/** The view as ingest's parse worker derives and stores it (without the failures it logs). */
function storedView(parsed: MessageToStore['parsed'] & { html: string | null }): MessageToStore['derived'] {
  const { failures: _failures, ...derived } = deriveParsed(parsed)
  return derived
}

/**
 * Stores a message with mail-ingest's own code (the stored source, the derived view and the writer its store worker
 * runs) on a connection of its own: the api sees it as it sees real mail, through its storage's commit signal. The mail is
 * given as a parser would have read it; `raw` defaults to a small source matching it.
 */
export async function deliver(app: App, address: string, mail: TestMail = {}): Promise<number> {
  const [id] = await deliverToAll(app, [address], mail)
  return id!
}

/** A message as mail-ingest's parse worker hands it to the writer (source, parsed mail and derived view). */
export function incomingMessage(inboxIds: number[], addresses: string[], mail: TestMail = {}): MessageToStore {
  const subject = mail.subject ?? 'Hello'
  const fromAddress = mail.fromAddress ?? 'sender@example.com'
  const raw = mail.raw ?? Buffer.from(`From: ${fromAddress}\r\nSubject: ${subject}\r\n\r\n${mail.text ?? ''}\r\n`)
  const text = mail.text === undefined ? 'Hello there' : mail.text
  const parsed: MessageToStore['parsed'] & { html: string | null } = {
    from: { name: mail.fromName ?? 'Sender', address: fromAddress },
    recipients: addresses.map((address) => ({ name: '', address })),
    subject,
    text,
    html: mail.html ?? null,
    sentAt: Date.UTC(2026, 10, 22, 8, 0, 0),
    headers: mail.headers ?? [['From', fromAddress], ['Subject', subject]],
    attachments: (mail.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: a.content.length,
      contentId: a.contentId ?? null,
      isInline: a.inline ?? false,
      content: a.content,
    })),
  }
  return { inboxIds, parsed, source: toStoredSource(raw, text), receivedAt: mail.receivedAt ?? Date.now(), derived: storedView(parsed) }
}

/** One message sent to several addresses: stored once, listed in each inbox. Returns its id in each inbox. */
export async function deliverToAll(app: App, addresses: string[], mail: TestMail = {}): Promise<number[]> {
  return deliverIncoming(app, addresses, (inboxIds) => incomingMessage(inboxIds, addresses, mail))
}

/**
 * Many messages to one address, stored as mail-ingest stores a busy moment's mail: up to `perCommit` in one commit (one
 * transaction, one notification round on PostgreSQL), not one each. Returns their ids in the order given.
 */
export async function deliverMany(app: App, address: string, mails: TestMail[], perCommit = 50): Promise<number[]> {
  const { id: inboxId } = await app.db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()
  const ids: number[] = []
  for (let start = 0; start < mails.length; start += perCommit) {
    const batch = mails.slice(start, start + perCommit)
    const heard = onPostgres ? heardBy(app, [inboxId]) : null
    await ingestWriter(app)(batch.map((mail) => incomingMessage([inboxId], [address], mail)))
    await heard
    const rows = await app.db.selectFrom('message').select('id').where('inbox_id', '=', inboxId).orderBy('id', 'desc').limit(batch.length).execute()
    ids.push(...rows.map((row) => row.id).reverse())
  }
  await nextTurn()
  return ids
}

/** Stores a message made by `build` (given each address's inbox id) as deliverToAll does. Returns its id in each inbox. */
export async function deliverIncoming(app: App, addresses: string[], build: (inboxIds: number[]) => MessageToStore): Promise<number[]> {
  const inboxes = await app.db.selectFrom('inbox').select(['id', 'address']).where('address', 'in', addresses).execute()
  const inboxIds = addresses.map((a) => inboxes.find((i) => i.address === a)!.id)
  const heard = onPostgres ? heardBy(app, inboxIds) : null
  await ingestWriter(app)([build(inboxIds)])
  await heard
  const ids = []
  for (const inboxId of inboxIds) {
    ids.push((await app.db.selectFrom('message').select('id').where('inbox_id', '=', inboxId).orderBy('id', 'desc').executeTakeFirstOrThrow()).id)
  }
  // The 250 goes back over SMTP before anyone asks the api: the next request comes in a later turn.
  await nextTurn()
  return ids
}

/** Per app, the deliveries waiting to hear of each inbox's change (several may wait on one inbox at once). */
const hearing = new WeakMap<App, Map<number, (() => void)[]>>()

/**
 * On PostgreSQL the api hears of another node's commit by notification, a moment after it: a request sent at once
 * could still find the inbox's cached first page. A user's next request comes after the 250 has crossed SMTP, so the
 * tests wait, as that user does, until the api has heard of the mail (each inbox's change reaching its caches).
 */
function heardBy(app: App, inboxIds: number[]): Promise<void> {
  let waiting = hearing.get(app)
  if (!waiting) {
    const map = new Map<number, (() => void)[]>()
    app.mailWatcher.onInboxChange((inboxId) => {
      for (const resolve of map.get(inboxId) ?? []) resolve()
      map.delete(inboxId)
    })
    hearing.set(app, (waiting = map))
  }
  const all = Promise.all(inboxIds.map((id) => new Promise<void>((resolve) => waiting.set(id, [...(waiting.get(id) ?? []), resolve]))))
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the api did not hear of the delivery to inboxes ${inboxIds.join(', ')} within 20 s`)), 20_000)
  })
  return Promise.race([all.then(() => undefined), deadline]).finally(() => clearTimeout(timer))
}
