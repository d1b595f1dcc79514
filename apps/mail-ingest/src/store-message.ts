import type { createDb, Db, NewAttachment, NewMessage, NewMessageContent, StoredSource } from '@tempbox/db'
import { sql } from 'kysely'
import type { ParsedMessage } from './parse-message.js'
import type { StoredDerivation } from './derive-view.js'
import type { SmtpEnvelope } from './mail-auth/check.js'
import { freeDiskBytes, type StorageLimits } from './storage-guard.js'

/** The better-sqlite3 handle createDb opens beside the Kysely instance. */
export type SqliteHandle = ReturnType<typeof createDb>['sqlite']

export interface IncomingMessage {
  /** Distinct inboxes the message goes to: its content is stored once, with a listing row for each. */
  inboxIds: number[]
  parsed: ParsedMessage
  /** The bytes received after DATA, as they are stored (toStoredSource: the body may be left to `parsed.text`). */
  source: StoredSource
  receivedAt: number
  /** Preview, codes, links, text of HTML, sanitized HTML: computed in the parse worker (deriveView). */
  derived: StoredDerivation
  /** Set when the sender check is on: the message is stored as `checking` and checked after the commit. */
  envelope?: SmtpEnvelope
}

/** Writes messages and their attachments in ONE transaction: all of them are committed, or none. Gives their content ids. */
export type WriteMessages = (messages: IncomingMessage[]) => number[]

/** A content row as bound to the INSERT: `text` may be UTF-8 bytes, which the statement casts to TEXT. */
type ContentRow = Omit<NewMessageContent, 'text'> & { text: ParsedMessage['text'] }

function contentRow({ parsed, source, derived }: IncomingMessage): ContentRow {
  return {
    raw_body_is_text: source.bodyIsText ? 1 : 0,
    recipients: JSON.stringify(parsed.recipients),
    headers: JSON.stringify(parsed.headers),
    text: parsed.text,
    html: parsed.html,
    raw: source.raw,
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

function messageRow(inboxId: number, contentId: number, { parsed, source, receivedAt }: IncomingMessage): NewMessage {
  return {
    inbox_id: inboxId,
    message_content_id: contentId,
    from_name: parsed.from.name,
    from_address: parsed.from.address,
    subject: parsed.subject,
    sent_at: parsed.sentAt,
    received_at: receivedAt,
    size: source.size,
    attachment_count: parsed.attachments.length,
  }
}

function attachmentRow(contentId: number, position: number, a: ParsedMessage['attachments'][number]): NewAttachment {
  return {
    message_content_id: contentId,
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
 * their values line up with the compiled placeholders. A message's content and attachments are written once
 * however many of our addresses it went to; each inbox gets a small row pointing at them.
 */
export function createMessageWriter(db: Db, sqlite: SqliteHandle, limits: WriterLimits = NO_LIMITS): WriteMessages {
  // SQLite itself refuses to grow the file past the cap (SQLITE_FULL, the transaction rolled back): exact, and never
  // a half-written message.
  if (limits.maxDatabaseBytes > 0) {
    sqlite.pragma(`max_page_count = ${Math.floor(limits.maxDatabaseBytes / Number(sqlite.pragma('page_size', { simple: true })))}`)
  }
  const inboxHolds = sqlite.prepare<[number], { message_count: number; bytes_used: number }>(
    db.selectFrom('inbox').select(['message_count', 'bytes_used']).where('id', '=', 0).compile().sql,
  )
  /** Refuses the message when it would take any of its inboxes past its quota (counters kept by triggers). */
  const checkQuota = (message: IncomingMessage) => {
    let full = 0
    for (const inboxId of message.inboxIds) {
      const holds = inboxHolds.get(inboxId)
      if (!holds) continue
      if (holds.message_count + 1 > limits.maxMessagesPerInbox || holds.bytes_used + message.source.size > limits.maxInboxBytes) full++
    }
    if (full === 0) return
    throw new StoreRefusal(full === message.inboxIds.length ? 'mailbox_full' : 'some_mailboxes_full', `${full} of ${message.inboxIds.length} inboxes full`)
  }
  const sample: IncomingMessage = {
    inboxIds: [0],
    source: { raw: Buffer.alloc(0), bodyIsText: false, size: 0 },
    receivedAt: 0,
    derived: { version: 0, preview: '', htmlText: null, codes: [], links: [], safeHtml: null, hasRemoteContent: false, htmlWithheld: null },
    parsed: { from: { name: '', address: '' }, recipients: [], subject: '', text: null, html: null, sentAt: null, headers: [], attachments: [] },
  }
  const sampleContent = contentRow(sample)
  // CAST: bytes would otherwise be stored as a BLOB; the cast reinterprets them as text in the database's UTF-8, copying
  // nothing (a string is left as it is).
  const insertContent = sqlite.prepare(
    db.insertInto('message_content').values({ ...sampleContent, text: sql<string | null>`CAST(${sampleContent.text} AS TEXT)` }).compile().sql,
  )
  const insertMessage = sqlite.prepare(db.insertInto('message').values(messageRow(0, 0, sample)).compile().sql)
  const insertChecking = sqlite.prepare(db.insertInto('message_auth').values({ message_content_id: 0, status: 'checking' }).compile().sql)
  const insertAttachment = sqlite.prepare(
    db.insertInto('attachment').values(attachmentRow(0, 0, { filename: '', contentType: '', size: 0, contentId: null, isInline: false, content: Buffer.alloc(0) })).compile().sql,
  )
  const write = sqlite.transaction((messages: IncomingMessage[]) => {
    const full = limits.minFreeDiskBytes > 0 && freeDiskBytes(limits.databasePath) < limits.minFreeDiskBytes
    if (full) throw new StoreRefusal('storage_full', 'the disk is almost full')
    return messages.map((message) => {
      checkQuota(message)
      const contentId = Number(insertContent.run(Object.values(contentRow(message))).lastInsertRowid)
      message.parsed.attachments.forEach((a, position) => {
        insertAttachment.run(Object.values(attachmentRow(contentId, position, a)))
      })
      for (const inboxId of message.inboxIds) insertMessage.run(Object.values(messageRow(inboxId, contentId, message)))
      if (message.envelope) insertChecking.run(contentId, 'checking')
      return contentId
    })
  })
  // IMMEDIATE: the quota check reads before the first insert writes. In a deferred transaction a commit by another
  // connection in between (the api recording webhook attempts, say) makes the write fail at once with "database is
  // locked" (a stale snapshot, which no busy timeout waits out) and the sender gets 451; taking the write lock first
  // waits for it instead.
  return (messages) => write.immediate(messages)
}

/** What the writer enforces: per-inbox quotas and the store's size (see StorageLimits). */
export interface WriterLimits extends StorageLimits {
  maxMessagesPerInbox: number
  maxInboxBytes: number
}

const NO_LIMITS: WriterLimits = {
  databasePath: ':memory:', maxDatabaseBytes: 0, minFreeDiskBytes: 0, maxMessagesPerInbox: Infinity, maxInboxBytes: Infinity,
}

/**
 * Why a message was not stored when it is the sender's to retry or give up: every inbox it goes to is full
 * (`mailbox_full`), some of them are (`some_mailboxes_full`), or the store is (`storage_full`).
 */
export type RefusalKind = 'mailbox_full' | 'some_mailboxes_full' | 'storage_full'

export class StoreRefusal extends Error {
  constructor(readonly kind: RefusalKind, message: string) {
    super(message)
  }
}

/** The refusal an error from the writer stands for, if any (SQLITE_FULL: the file reached max_page_count or the disk). */
export function refusalKindOf(error: unknown): RefusalKind | null {
  if (error instanceof StoreRefusal) return error.kind
  if ((error as { code?: unknown } | null)?.code === 'SQLITE_FULL') return 'storage_full'
  return null
}

/** About what one stored message adds to the WAL: its large columns once, and a small row per inbox it goes to. */
export function walBytesOf({ source, parsed, inboxIds, derived }: IncomingMessage): number {
  const attachments = parsed.attachments.reduce((sum, a) => sum + a.content.length, 0)
  return source.raw.length + (parsed.text?.length ?? 0) + (parsed.html?.length ?? 0) + derivedLength(derived) + attachments + 512 * inboxIds.length
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
  options: { maxBatchMessages: number; onCommitted?: (messages: IncomingMessage[], contentIds: number[]) => void },
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
        const contentIds = write(messages)
        for (const p of batch) p.resolve()
        options.onCommitted?.(messages, contentIds)
      } catch (batchError) {
        for (const p of batch) {
          try {
            if (batch.length === 1) throw batchError
            const contentIds = write([p.message])
            p.resolve()
            options.onCommitted?.([p.message], contentIds)
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
