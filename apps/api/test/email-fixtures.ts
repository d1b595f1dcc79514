import { toStoredSource } from '@tempbox/db'
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
  const inbox = await app.db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()
  const subject = mail.subject ?? 'Hello'
  const raw = mail.raw ?? Buffer.from(`From: ${mail.fromAddress ?? 'sender@example.com'}\r\nSubject: ${subject}\r\n\r\n${mail.text ?? ''}\r\n`)
  const attachments = mail.attachments ?? []
  const text = mail.text === undefined ? 'Hello there' : mail.text
  const source = toStoredSource(raw, text)
  const row = await app.db
    .insertInto('message')
    .values({
      inbox_id: inbox.id,
      from_name: mail.fromName ?? 'Sender',
      from_address: mail.fromAddress ?? 'sender@example.com',
      recipients: JSON.stringify([{ name: '', address }]),
      subject,
      text,
      html: mail.html ?? null,
      sent_at: Date.UTC(2026, 10, 22, 8, 0, 0),
      received_at: mail.receivedAt ?? Date.now(),
      size: source.size,
      headers: JSON.stringify(mail.headers ?? [['From', mail.fromAddress ?? 'sender@example.com'], ['Subject', subject]]),
      raw: source.raw,
      raw_body_is_text: source.bodyIsText ? 1 : 0,
      attachment_count: attachments.length,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const [position, a] of attachments.entries()) {
    await app.db
      .insertInto('attachment')
      .values({
        message_id: row.id,
        position,
        filename: a.filename,
        content_type: a.contentType,
        size: a.content.length,
        content_id: a.contentId ?? null,
        is_inline: a.inline ? 1 : 0,
        content: a.content,
      })
      .execute()
  }
  return row.id
}
