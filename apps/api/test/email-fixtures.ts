import { insertMessage, toStoredSource } from '@tempbox/db'
import type { App } from '../src/app.js'

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

/** Stores a message the way mail-ingest does (straight into the database). */
export async function deliver(app: App, address: string, mail: TestMail = {}): Promise<number> {
  const [id] = await deliverToAll(app, [address], mail)
  return id!
}

/** One message sent to several addresses: stored once, listed in each inbox. Returns its id in each inbox. */
export async function deliverToAll(app: App, addresses: string[], mail: TestMail = {}): Promise<number[]> {
  const inboxes = await app.db.selectFrom('inbox').select(['id', 'address']).where('address', 'in', addresses).execute()
  const inboxIds = addresses.map((a) => inboxes.find((i) => i.address === a)!.id)
  const subject = mail.subject ?? 'Hello'
  const raw = mail.raw ?? Buffer.from(`From: ${mail.fromAddress ?? 'sender@example.com'}\r\nSubject: ${subject}\r\n\r\n${mail.text ?? ''}\r\n`)
  const attachments = mail.attachments ?? []
  const text = mail.text === undefined ? 'Hello there' : mail.text
  const source = toStoredSource(raw, text)
  return insertMessage(app.db, inboxIds, {
    content: {
      recipients: JSON.stringify(addresses.map((address) => ({ name: '', address }))),
      headers: JSON.stringify(mail.headers ?? [['From', mail.fromAddress ?? 'sender@example.com'], ['Subject', subject]]),
      text,
      html: mail.html ?? null,
      raw: source.raw,
      raw_body_is_text: source.bodyIsText ? 1 : 0,
    },
    listing: {
      from_name: mail.fromName ?? 'Sender',
      from_address: mail.fromAddress ?? 'sender@example.com',
      subject,
      sent_at: Date.UTC(2026, 10, 22, 8, 0, 0),
      received_at: mail.receivedAt ?? Date.now(),
      size: source.size,
      attachment_count: attachments.length,
    },
    attachments: attachments.map((a, position) => ({
      position,
      filename: a.filename,
      content_type: a.contentType,
      size: a.content.length,
      content_id: a.contentId ?? null,
      is_inline: a.inline ? 1 : 0,
      content: a.content,
    })),
  })
}
