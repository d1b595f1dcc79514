import type SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import type { Db } from '../../create-db.js'
import type { NewAttachment, NewMessage, NewMessageContent } from '../../schema.js'
import { NO_LIMITS, StoreRefusal, type AttachmentToStore, type MessageToStore, type WriteMessages, type WriterLimits } from '../message-to-store.js'
import { freeDiskBytes } from './disk.js'
import { storedHeaders } from '../stored-headers.js'
import { textHeadOf } from '../text-head.js'
import { searchCopyFor } from '../search-text.js'
import { DEFAULT_DELIVERY_LOG_ENTRIES } from '../../delivery-log.js'

/** A content row as bound to the INSERT: `text` and `html` may be UTF-8 bytes, which the statement casts to TEXT. */
type ContentRow = Omit<NewMessageContent, 'text' | 'html'> & { text: MessageToStore['parsed']['text']; html: MessageToStore['parsed']['html'] }

function contentRow({ parsed, source, derived }: MessageToStore): ContentRow {
  return {
    raw_body_is_text: source.bodyIsText ? 1 : 0,
    recipients: JSON.stringify(parsed.recipients),
    headers: JSON.stringify(storedHeaders(parsed.headers)),
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

function messageRow(inboxId: number, contentId: number, { parsed, source, receivedAt }: MessageToStore, tag: string | null): NewMessage {
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
    rcpt_tag: tag,
  }
}

function searchRow(contentId: number, message: MessageToStore) {
  const copy = searchCopyFor(message)
  return { message_content_id: contentId, subject: copy.subject, from_name: copy.fromName, from_address: copy.fromAddress, body: copy.body }
}

function attachmentRow(contentId: number, position: number, a: AttachmentToStore): NewAttachment {
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
export function createMessageWriter(db: Db, sqlite: SQLite.Database, limits: WriterLimits = NO_LIMITS): WriteMessages {
  // SQLite itself refuses to grow the file past the cap (SQLITE_FULL, the transaction rolled back): exact, and never
  // a half-written message.
  if (limits.maxDatabaseBytes > 0) {
    sqlite.pragma(`max_page_count = ${Math.floor(limits.maxDatabaseBytes / Number(sqlite.pragma('page_size', { simple: true })))}`)
  }
  // The triggers on `message` (quota counters, webhook queue) make each INSERT a multi-row write, which SQLite guards
  // with a statement journal inside the transaction; with 16 KB pages a message's few pages pass its 64 KB in-memory
  // bound and it spills to a temporary file, a pwrite per page and per message (~40 % of the writer's CPU). Kept in
  // memory instead: it never holds more than the pages one statement of this writer touches.
  sqlite.pragma('temp_store = MEMORY')
  const inboxHolds = sqlite.prepare<[number], { message_count: number; bytes_used: number }>(
    db.selectFrom('inbox').select(['message_count', 'bytes_used']).where('id', '=', 0).compile().sql,
  )
  /** Refuses the message when it would take any of its inboxes past its quota (counters kept by triggers). */
  const checkQuota = (message: MessageToStore) => {
    let full = 0
    for (const inboxId of message.inboxIds) {
      const holds = inboxHolds.get(inboxId)
      if (!holds) continue
      if (holds.message_count + 1 > limits.maxMessagesPerInbox || holds.bytes_used + message.source.size > limits.maxInboxBytes) full++
    }
    if (full === 0) return
    throw new StoreRefusal(full === message.inboxIds.length ? 'mailbox_full' : 'some_mailboxes_full', `${full} of ${message.inboxIds.length} inboxes full`)
  }
  const sample: MessageToStore = {
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
    db
      .insertInto('message_content')
      .values({ ...sampleContent, text: sql<string | null>`CAST(${sampleContent.text} AS TEXT)`, html: sql<string | null>`CAST(${sampleContent.html} AS TEXT)` })
      .compile().sql,
  )
  const insertHead = sqlite.prepare(
    db.insertInto('message_text_head').values({ message_content_id: 0, text: sql<string>`CAST(${''} AS TEXT)` }).compile().sql,
  )
  const insertMessage = sqlite.prepare(db.insertInto('message').values(messageRow(0, 0, sample, null)).compile().sql)
  const insertDelivery = sqlite.prepare<[number, number, string, number, string | null, number]>(
    `INSERT INTO delivery_log (inbox_id, at, result, reply_code, enhanced_status, reason, size, tag, message_id) VALUES (?, ?, 'accepted', 250, '2.0.0', ?, ?, ?, ?)`,
  )
  const trimDeliveries = sqlite.prepare<[number, number, number]>(
    'DELETE FROM delivery_log WHERE inbox_id = ? AND id <= (SELECT id FROM delivery_log WHERE inbox_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)',
  )
  const keepDeliveries = limits.deliveryLogEntries ?? DEFAULT_DELIVERY_LOG_ENTRIES
  // Trimmed once per tenth of `keep` entries an inbox gets, not per commit: the trim's index walk of `keep` rows cost
  // ~5 % of a 2 KB message's writer CPU. An inbox so holds at most keep + slack - 1 entries between trims.
  const trimSlack = Math.max(1, Math.ceil(keepDeliveries / 10))
  const untrimmed = new Map<number, number>()
  const insertSearch = sqlite.prepare(db.insertInto('message_search').values(searchRow(0, sample)).compile().sql)
  const insertChecking = sqlite.prepare(db.insertInto('message_auth').values({ message_content_id: 0, status: 'checking' }).compile().sql)
  const insertAttachment = sqlite.prepare(
    db.insertInto('attachment').values(attachmentRow(0, 0, { filename: '', contentType: '', size: 0, contentId: null, isInline: false, content: Buffer.alloc(0) })).compile().sql,
  )
  const write = sqlite.transaction((messages: MessageToStore[]) => {
    const full = limits.minFreeDiskBytes > 0 && freeDiskBytes(limits.databasePath) < limits.minFreeDiskBytes
    if (full) throw new StoreRefusal('storage_full', 'the disk is almost full')
    const logged = new Map<number, number>()
    const contentIds = messages.map((message) => {
      checkQuota(message)
      const contentId = Number(insertContent.run(Object.values(contentRow(message))).lastInsertRowid)
      const head = textHeadOf(message.parsed.text, limits.textHeadChars)
      if (head !== null) insertHead.run(contentId, head)
      insertSearch.run(Object.values(searchRow(contentId, message)))
      message.parsed.attachments.forEach((a, position) => {
        insertAttachment.run(Object.values(attachmentRow(contentId, position, a)))
      })
      message.inboxIds.forEach((inboxId, i) => {
        const delivery = message.deliveries?.[i]
        const id = insertMessage.run(Object.values(messageRow(inboxId, contentId, message, delivery?.tag ?? null))).lastInsertRowid
        if (!delivery) return
        insertDelivery.run(inboxId, message.receivedAt, delivery.reason, message.source.size, delivery.tag, Number(id))
        logged.set(inboxId, (logged.get(inboxId) ?? 0) + 1)
      })
      if (message.envelope) insertChecking.run(contentId, 'checking')
      return contentId
    })
    for (const [inboxId, entries] of logged) {
      const count = (untrimmed.get(inboxId) ?? 0) + entries
      if (count < trimSlack) untrimmed.set(inboxId, count)
      else {
        trimDeliveries.run(inboxId, inboxId, keepDeliveries)
        untrimmed.delete(inboxId)
      }
    }
    // Bounded memory: past this many inboxes, each is trimmed now and the counts start over.
    if (untrimmed.size > 10_000) {
      for (const inboxId of untrimmed.keys()) trimDeliveries.run(inboxId, inboxId, keepDeliveries)
      untrimmed.clear()
    }
    return contentIds
  })
  // IMMEDIATE: the quota check reads before the first insert writes. In a deferred transaction a commit by another
  // connection in between (the api recording webhook attempts, say) makes the write fail at once with "database is
  // locked" (a stale snapshot, which no busy timeout waits out) and the sender gets 451; taking the write lock first
  // waits for it instead.
  // Synchronous inside (better-sqlite3 on the store worker's own thread); a promise so an engine that must wait fits.
  return async (messages) => write.immediate(messages)
}
