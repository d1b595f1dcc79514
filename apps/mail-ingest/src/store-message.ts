import type { createDb, Db, NewAttachment, NewMessage, StoredSource } from '@tempbox/db'
import { sql } from 'kysely'
import type { ParsedMessage } from './parse-message.js'
import type { StoredDerivation } from './derive-view.js'

/** The better-sqlite3 handle createDb opens beside the Kysely instance. */
export type SqliteHandle = ReturnType<typeof createDb>['sqlite']

export interface IncomingMessage {
  /** Distinct inboxes the message goes to; one row is stored for each. */
  inboxIds: number[]
  parsed: ParsedMessage
  /** The bytes received after DATA, as they are stored (toStoredSource: the body may be left to `parsed.text`). */
  source: StoredSource
  receivedAt: number
  /** Preview, codes, links, text of HTML, sanitized HTML: computed in the parse worker (deriveView). */
  derived: StoredDerivation
}

/** Writes messages and their attachments in ONE transaction: all of them are committed, or none. */
export type WriteMessages = (messages: IncomingMessage[]) => void

/** A message row as bound to the INSERT: `text` may be UTF-8 bytes, which the statement casts to TEXT. */
type MessageRow = Omit<NewMessage, 'text'> & { text: ParsedMessage['text'] }

function messageRow(inboxId: number, { parsed, source, receivedAt, derived }: IncomingMessage, recipients: string, headers: string): MessageRow {
  return {
    inbox_id: inboxId,
    from_name: parsed.from.name,
    from_address: parsed.from.address,
    recipients,
    subject: parsed.subject,
    text: parsed.text,
    html: parsed.html,
    sent_at: parsed.sentAt,
    received_at: receivedAt,
    size: source.size,
    headers,
    raw: source.raw,
    attachment_count: parsed.attachments.length,
    raw_body_is_text: source.bodyIsText ? 1 : 0,
    derived_version: derived.version,
    preview: derived.preview,
    html_text: derived.htmlText,
    codes: JSON.stringify(derived.codes),
    links: JSON.stringify(derived.links),
    safe_html: derived.safeHtml,
    has_remote_content: derived.hasRemoteContent ? 1 : 0,
    html_withheld: derived.htmlWithheld,
  }
}

function attachmentRow(messageId: number, position: number, a: ParsedMessage['attachments'][number]): NewAttachment {
  return {
    message_id: messageId,
    position,
    filename: a.filename,
    content_type: a.contentType,
    size: a.size,
    content_id: a.contentId,
    is_inline: a.isInline ? 1 : 0,
    content: a.content,
  }
}

/**
 * The queries are written with Kysely (so they are checked against the schema) but compiled once and run as
 * cached better-sqlite3 prepared statements inside a synchronous transaction: building and preparing the
 * SQL for every row cost more CPU than SQLite's own work. Row objects always have the same key order, so
 * their values line up with the compiled placeholders.
 */
export function createMessageWriter(db: Db, sqlite: SqliteHandle): WriteMessages {
  const sample: IncomingMessage = {
    inboxIds: [0],
    source: { raw: Buffer.alloc(0), bodyIsText: false, size: 0 },
    receivedAt: 0,
    derived: { version: 0, preview: '', htmlText: null, codes: [], links: [], safeHtml: null, hasRemoteContent: false, htmlWithheld: null },
    parsed: { from: { name: '', address: '' }, recipients: [], subject: '', text: null, html: null, sentAt: null, headers: [], attachments: [] },
  }
  const sampleRow = messageRow(0, sample, '', '')
  // CAST: bytes would otherwise be stored as a BLOB; the cast reinterprets them as text in the database's UTF-8, copying
  // nothing (a string is left as it is).
  const insertMessage = sqlite.prepare(
    db.insertInto('message').values({ ...sampleRow, text: sql<string | null>`CAST(${sampleRow.text} AS TEXT)` }).compile().sql,
  )
  const insertAttachment = sqlite.prepare(
    db.insertInto('attachment').values(attachmentRow(0, 0, { filename: '', contentType: '', size: 0, contentId: null, isInline: false, content: Buffer.alloc(0) })).compile().sql,
  )
  return sqlite.transaction((messages: IncomingMessage[]) => {
    for (const message of messages) {
      const recipients = JSON.stringify(message.parsed.recipients)
      const headers = JSON.stringify(message.parsed.headers)
      for (const inboxId of message.inboxIds) {
        const { lastInsertRowid } = insertMessage.run(Object.values(messageRow(inboxId, message, recipients, headers)))
        message.parsed.attachments.forEach((a, position) => {
          insertAttachment.run(Object.values(attachmentRow(Number(lastInsertRowid), position, a)))
        })
      }
    }
  })
}

/** About what one stored message adds to the WAL: its large columns, once per inbox it goes to. */
export function walBytesOf({ source, parsed, inboxIds, derived }: IncomingMessage): number {
  const attachments = parsed.attachments.reduce((sum, a) => sum + a.content.length, 0)
  return (source.raw.length + (parsed.text?.length ?? 0) + (parsed.html?.length ?? 0) + derivedLength(derived) + attachments + 512) * inboxIds.length
}

function derivedLength(d: StoredDerivation): number {
  return d.preview.length + (d.htmlText?.length ?? 0) + (d.safeHtml?.length ?? 0)
}

export interface MessageStore {
  /** Resolves once the message is committed (durable), rejects if it could not be stored. */
  store: (message: IncomingMessage) => Promise<void>
  /** Waits for queued messages to be written. */
  drain: () => Promise<void>
}

interface Pending {
  message: IncomingMessage
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * Group commit: messages that arrive while a transaction is being written wait and go together into the
 * next one, so many concurrent sessions share one WAL fsync instead of paying one each. Nobody is
 * acknowledged before the transaction holding their message has committed. If a batch fails (say an
 * inbox was deleted in between), each message is retried alone so one bad message cannot fail the others.
 */
export function createMessageStore(
  write: WriteMessages,
  options: { maxBatchMessages: number; onCommitted?: (messages: IncomingMessage[]) => void },
): MessageStore {
  const queue: Pending[] = []
  let flushing: Promise<void> | null = null

  const flush = async () => {
    // Yield once per batch so messages that arrived during the last commit join the next one.
    for (;;) {
      await new Promise<void>((r) => setImmediate(r))
      if (queue.length === 0) break
      const batch = queue.splice(0, options.maxBatchMessages)
      try {
        const messages = batch.map((p) => p.message)
        write(messages)
        for (const p of batch) p.resolve()
        options.onCommitted?.(messages)
      } catch (batchError) {
        for (const p of batch) {
          try {
            if (batch.length > 1) write([p.message])
            else throw batchError
            p.resolve()
            options.onCommitted?.([p.message])
          } catch (error) {
            p.reject(error)
          }
        }
      }
    }
    flushing = null
  }

  return {
    store: (message) =>
      new Promise<void>((resolve, reject) => {
        queue.push({ message, resolve, reject })
        flushing ??= flush()
      }),
    drain: async () => {
      while (flushing) await flushing
    },
  }
}
