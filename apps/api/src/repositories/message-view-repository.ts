import { sql } from 'kysely'
import { asUtf8Bytes, fullSource, hasHtml, selectMessagesWithContent, VIEW_HEADER_LIMITS, type Db, type MessageContentRow, type MessageRow } from '@tempbox/db'

/**
 * A message as its inbox holds it, with its (shared) content but none of its bodies: not the raw source (the download
 * reads it), nor the text and HTML, which can be megabytes each (the view reads a bounded text through findViewText).
 */
export type MessageSummaryRow = Omit<MessageRow, 'rcpt_tag'> &
  Omit<MessageContentRow, 'id' | 'raw' | 'raw_body_is_text' | 'text' | 'html' | 'text_head' | 'headers'> & { has_html: number }

/**
 * The most of a subject a message view shows: far beyond any real one (the longest in the real-mail corpus is under
 * 300), while a subject folded over megabytes of header lines is not read and sent whole on every view, stream event
 * and long poll. The .eml download keeps it whole.
 */
export const VIEW_SUBJECT_CHARS = 16_384

/**
 * The sender and subject as a message view reads them: cut in SQL like the listing's (LIST_TEXT_CHARS), at the
 * display limits, so a 1 MB From header (mailparser accepts that much) is not sent on every read. The subject is read
 * one character past its limit, so the view can tell that it was cut.
 */
const summaryColumns = (db: Db) => [
  'message.id', 'message.inbox_id', 'message.message_content_id',
  sql<string>`substr(message.from_name, 1, ${VIEW_HEADER_LIMITS.valueChars})`.as('from_name'),
  sql<string>`substr(message.from_address, 1, ${VIEW_HEADER_LIMITS.valueChars})`.as('from_address'),
  sql<string>`substr(message.subject, 1, ${VIEW_SUBJECT_CHARS + 1})`.as('subject'), 'message.sent_at', 'message.received_at', 'message.size', 'message.attachment_count', 'message.read_at',
  'message_content.recipients',
  'message_content.derived_version', 'message_content.preview', 'message_content.html_text', 'message_content.codes',
  'message_content.links', 'message_content.safe_html', 'message_content.has_remote_content', 'message_content.html_withheld',
  hasHtml(db),
] as const

export async function findMessage(db: Db, inboxId: number, id: number): Promise<MessageSummaryRow | undefined> {
  return selectMessagesWithContent(db).select(summaryColumns(db)).where('message.id', '=', id).where('message.inbox_id', '=', inboxId).executeTakeFirst()
}

/** A message row without its two large derived texts (the view reads them as bytes: findViewBodyBytes). */
export type MessageViewRow = Omit<MessageSummaryRow, 'html_text' | 'safe_html'>

export async function findMessageForView(db: Db, inboxId: number, id: number): Promise<MessageViewRow | undefined> {
  const columns = summaryColumns(db).filter((c) => c !== 'message_content.html_text' && c !== 'message_content.safe_html')
  return selectMessagesWithContent(db).select(columns).where('message.id', '=', id).where('message.inbox_id', '=', inboxId).executeTakeFirst() as Promise<
    MessageViewRow | undefined
  >
}

/**
 * The sanitized HTML and the text rendering of HTML, as UTF-8 bytes (asUtf8Bytes): each up to 256 K characters. Only
 * the ones asked for are read: both sit after `text` (and `html`) in a SQLite row, so reading one walks those values'
 * overflow pages (megabytes for a large mail).
 */
export async function findViewBodyBytes(
  db: Db,
  messageContentId: number,
  want: { safeHtml: boolean; htmlText: boolean },
): Promise<{ safeHtml: Buffer | null; htmlText: Buffer | null }> {
  if (!want.safeHtml && !want.htmlText) return { safeHtml: null, htmlText: null }
  const row = await db
    .selectFrom('message_content')
    .select([
      asUtf8Bytes(db, want.safeHtml ? sql<string | null>`message_content.safe_html` : sql<string | null>`null`).as('safe_html'),
      asUtf8Bytes(db, want.htmlText ? sql<string | null>`message_content.html_text` : sql<string | null>`null`).as('html_text'),
    ])
    .where('id', '=', messageContentId)
    .executeTakeFirst()
  const bytes = (value: string | Buffer | null | undefined) => (value === null || value === undefined ? null : typeof value === 'string' ? Buffer.from(value) : value)
  return { safeHtml: bytes(row?.safe_html), htmlText: bytes(row?.html_text) }
}

/** The message's source exactly as received (rebuilt from header block and text when stored that way). */
export async function findRawMessage(db: Db, inboxId: number, id: number): Promise<Pick<MessageRow, 'id' | 'subject'> & { raw: Buffer } | undefined> {
  const row = await selectMessagesWithContent(db)
    .select(['message.id', 'message.subject', 'message_content.raw', 'message_content.text', 'message_content.raw_body_is_text'])
    .where('message.id', '=', id)
    .where('message.inbox_id', '=', inboxId)
    .executeTakeFirst()
  return row && { id: row.id, subject: row.subject, raw: fullSource(row) }
}

/** The oldest message in the inbox newer than `afterId`, for the long poll. */
export async function findFirstMessageAfter(db: Db, inboxId: number, afterId: number): Promise<MessageSummaryRow | undefined> {
  return selectMessagesWithContent(db)
    .select(summaryColumns(db))
    .where('message.inbox_id', '=', inboxId)
    .where('message.id', '>', afterId)
    .orderBy('message.id', 'asc')
    .limit(1)
    .executeTakeFirst()
}

export async function listMessagesAfter(db: Db, inboxId: number, afterId: number): Promise<MessageSummaryRow[]> {
  return selectMessagesWithContent(db)
    .select(summaryColumns(db))
    .where('message.inbox_id', '=', inboxId)
    .where('message.id', '>', afterId)
    .orderBy('message.id', 'asc')
    .execute()
}

export async function findMessagesByIds(db: Db, ids: number[]): Promise<MessageSummaryRow[]> {
  if (ids.length === 0) return []
  return selectMessagesWithContent(db).select(summaryColumns(db)).where('message.id', 'in', ids).orderBy('message.id', 'asc').execute()
}
