import { isAscii, isUtf8 } from 'node:buffer'
import { sql, type RawBuilder } from 'kysely'
import { asUtf8Bytes, fullSource, hasHtml, selectMessagesWithContent, VIEW_HEADER_LIMITS, type Db, type MessageContentRow, type MessageRow } from '@tempbox/db'

/**
 * A message as its inbox holds it, with its (shared) content but none of its bodies: not the raw source (the download
 * reads it), nor the text and HTML, which can be megabytes each (the view reads a bounded text through findViewText;
 * a derivation reads them whole through findMessageBodies).
 */
export type MessageSummaryRow = Omit<MessageRow, 'rcpt_tag'> &
  Omit<MessageContentRow, 'id' | 'raw' | 'raw_body_is_text' | 'text' | 'html' | 'text_head' | 'headers'> & { has_html: number }

export { findViewHeaders, VIEW_HEADER_LIMITS, type ViewHeader } from '@tempbox/db'

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

/** What a message view shows of the text part: its beginning, at most `maxChars` characters (see findViewText). */
export interface ViewText {
  text: string | null
  truncated: boolean
}

/** The same, as the UTF-8 bytes it is stored as (see findViewTextBytes). */
export interface ViewTextBytes {
  text: Buffer | null
  truncated: boolean
}

/**
 * At most `maxChars` characters of the message's text part, reading no more than that: a text short enough (in bytes:
 * octet_length() is answered from the record header) is read whole, a longer one through its stored head
 * (message_text_head, reached without walking the pages of `text` and `raw`), which is filled here at its first read.
 * Only that first read pays for the whole text. A head stored under a smaller limit is filled again; one that cannot
 * be stored (a read-only database) is cut in SQL for this read. Characters are counted as JavaScript counts them
 * (UTF-16 units), and a cut never splits one.
 */
export async function findViewText(db: Db, messageContentId: number, maxChars: number): Promise<ViewText> {
  return readViewText(db, messageContentId, maxChars, false, stringHead)
}

/**
 * findViewText's text as UTF-8 bytes, cut at the same character: on SQLite read as a BLOB, so no JavaScript string of
 * it is ever made (the message view's bytes are spliced from it; see InboxService.fullMessageJson).
 */
export async function findViewTextBytes(db: Db, messageContentId: number, maxChars: number): Promise<ViewTextBytes> {
  return readViewText(db, messageContentId, maxChars, true, utf8Head)
}

async function readViewText<T extends string | Buffer>(
  db: Db,
  messageContentId: number,
  maxChars: number,
  bytes: boolean,
  headOf: (text: string | Buffer, maxUnits: number) => { head: T; more: boolean },
): Promise<{ text: T | null; truncated: boolean }> {
  const asRead = (value: RawBuilder<string | null>) => (bytes ? asUtf8Bytes(db, value) : value)
  const read = () =>
    db
      .selectFrom('message_content')
      .leftJoin('message_text_head', 'message_text_head.message_content_id', 'message_content.id')
      .select([
        asRead(sql<string | null>`case when octet_length(message_content.text) <= ${maxChars} then message_content.text else message_text_head.text end`).as('text'),
        sql<number>`cast(octet_length(message_content.text) > ${maxChars} as integer)`.as('long'),
        sql<number>`cast(octet_length(message_content.text) > coalesce(octet_length(message_text_head.text), 0) as integer)`.as('cut'),
      ])
      .where('message_content.id', '=', messageContentId)
      .executeTakeFirst()
  let row = await read()
  if (!row) return { text: null, truncated: false }
  // A text of at most maxChars bytes holds at most maxChars characters: it is shown whole.
  if (!row.long) return { text: row.text === null ? null : headOf(row.text, Infinity).head, truncated: false }
  let cut = row.text === null ? null : headOf(row.text, maxChars)
  // A head one character longer than shown tells "cut here" from "this is all of it".
  const stale = cut === null || (row.cut === 1 && !cut.more)
  if (stale) {
    const head = sql<string>`substr(text, 1, ${maxChars + 1})`
    try {
      await db
        .insertInto('message_text_head')
        .columns(['message_content_id', 'text'])
        .expression((eb) => eb.selectFrom('message_content').select(['id', head.as('text')]).where('id', '=', messageContentId))
        .onConflict((oc) => oc.column('message_content_id').doUpdateSet((eb) => ({ text: eb.ref('excluded.text') })))
        .execute()
      row = (await read()) ?? row
    } catch {
      const fallback = await db.selectFrom('message_content').select(asRead(head).as('text')).where('id', '=', messageContentId).executeTakeFirst()
      row = { ...row, text: fallback?.text ?? null, cut: 1 }
    }
    cut = headOf(row.text ?? '', maxChars)
  }
  return { text: cut!.head, truncated: row.cut === 1 && cut!.more }
}

/** At most `maxUnits` UTF-16 units of a string, never ending between the two halves of a character. */
function stringHead(text: string | Buffer, maxUnits: number): { head: string; more: boolean } {
  const s = typeof text === 'string' ? text : text.toString('utf8')
  if (s.length <= maxUnits) return { head: s, more: false }
  let end = maxUnits
  const last = s.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return { head: s.slice(0, end), more: true }
}

/**
 * The UTF-8 bytes of stringHead's head: at most `maxUnits` UTF-16 units (a 4-byte character counts two), cut before a
 * character that would not fit whole. A subarray: nothing is copied.
 */
export function utf8Head(text: string | Buffer, maxUnits: number): { head: Buffer; more: boolean } {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text
  // Each character is at least one byte and at most two units per four bytes: short enough needs no count.
  if (bytes.length <= maxUnits) return { head: bytes, more: false }
  // Counted natively where it can be (a byte loop run once per message is rarely optimized yet): ASCII is a unit a
  // byte; other valid UTF-8 is decoded, cut as stringHead cuts, and the cut measured in bytes.
  if (isAscii(bytes)) return { head: bytes.subarray(0, maxUnits), more: true }
  if (isUtf8(bytes)) {
    const { head, more } = stringHead(bytes.toString('utf8'), maxUnits)
    return { head: more ? bytes.subarray(0, Buffer.byteLength(head)) : bytes, more }
  }
  let units = 0
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!
    if ((b & 0xc0) === 0x80) continue // a continuation byte
    units += b >= 0xf0 ? 2 : 1
    if (units > maxUnits) return { head: bytes.subarray(0, i), more: true }
  }
  return { head: bytes, more: false }
}

/** The whole text and HTML of a message: only for deriving its view, once. */
export async function findMessageBodies(db: Db, messageContentId: number): Promise<Pick<MessageContentRow, 'text' | 'html'>> {
  const row = await db.selectFrom('message_content').select(['text', 'html']).where('id', '=', messageContentId).executeTakeFirst()
  return row ?? { text: null, html: null }
}

/** The derived columns of a message (@tempbox/mail-derive), as stored. */
export type DerivedColumns = Pick<
  MessageContentRow,
  'derived_version' | 'preview' | 'html_text' | 'codes' | 'links' | 'safe_html' | 'has_remote_content' | 'html_withheld'
>

/**
 * Stores a derivation made at first read (a message from before derivation at ingest). Only over an older one: a
 * concurrent reader that stored the same version first wins, with identical values.
 */
export async function storeDerived(db: Db, messageContentId: number, columns: DerivedColumns): Promise<void> {
  await db
    .updateTable('message_content')
    .set(columns)
    .where('id', '=', messageContentId)
    .where((eb) => eb.or([eb('derived_version', 'is', null), eb('derived_version', '<', columns.derived_version ?? 0)]))
    .execute()
}

/** Content-IDs of a message's attachments by position: the derivation maps `cid:` references with them. */
export async function listContentIds(db: Db, messageContentId: number): Promise<(string | null)[]> {
  const rows = await db
    .selectFrom('attachment')
    .select(['position', 'content_id'])
    .where('message_content_id', '=', messageContentId)
    .orderBy('position')
    .execute()
  const ids: (string | null)[] = []
  for (const r of rows) ids[r.position] = r.content_id
  return Array.from(ids, (id) => id ?? null)
}

/**
 * What the listing reads of a message: no body, no sanitized HTML, and subject and sender cut short in SQL, so a page
 * costs the same whatever its messages hold.
 */
export type ListRow = Pick<MessageRow, 'id' | 'subject' | 'from_name' | 'from_address' | 'received_at' | 'size' | 'attachment_count' | 'read_at'> &
  Pick<MessageContentRow, 'derived_version' | 'preview' | 'codes' | 'links'> & { has_html: number }

/** Characters of subject and of sender name/address a listing reads (summaries carry no more). */
export const LIST_TEXT_CHARS = { subject: 300, sender: 320 } as const

/** Messages with what the listing reads of them (ListRow). The content's derived columns come first in its row, so the join reads no body pages. */
function selectListRows(db: Db) {
  return selectMessagesWithContent(db)
    .select(['message.id', 'message.received_at', 'message.size', 'message.attachment_count', 'message.read_at'])
    .select(['message_content.derived_version', 'message_content.preview', 'message_content.codes', 'message_content.links'])
    .select([
      sql<string>`substr(message.subject, 1, ${LIST_TEXT_CHARS.subject})`.as('subject'),
      sql<string>`substr(message.from_name, 1, ${LIST_TEXT_CHARS.sender})`.as('from_name'),
      sql<string>`substr(message.from_address, 1, ${LIST_TEXT_CHARS.sender})`.as('from_address'),
      hasHtml(db),
    ])
}

/** Messages by id as the listing reads them (no sanitized HTML, no text of HTML, no recipients): a webhook payload's summary. */
export async function findListRowsByIds(db: Db, ids: number[]): Promise<ListRow[]> {
  if (ids.length === 0) return []
  return selectListRows(db).where('message.id', 'in', ids).execute()
}

/**
 * One page of an inbox, newest (largest id) first: at most `limit` rows with an id below `before`, plus whether older
 * ones remain. A range scan of the (inbox_id, id) index, so its cost does not grow with the inbox. (A search's page is
 * searchInboxPage's, message-search.ts.)
 */
export async function listInboxPage(
  db: Db,
  inboxId: number,
  limit: number,
  before: number | null,
): Promise<{ rows: ListRow[]; more: boolean }> {
  let query = selectListRows(db).where('message.inbox_id', '=', inboxId)
  if (before !== null) query = query.where('message.id', '<', before)
  const rows = await query.orderBy('message.id', 'desc').limit(limit + 1).execute()
  const more = rows.length > limit
  if (more) rows.pop()
  return { rows, more }
}

/**
 * The inbox's messages, from the counter its quota keeps (the database's own triggers add and remove with every message
 * row, on both engines): one primary-key read, where a count walked the inbox's index, 20,000 entries for a full CI inbox,
 * at every listing built.
 */
export async function countInboxMessages(db: Db, inboxId: number): Promise<number> {
  const row = await db.selectFrom('inbox').select('message_count').where('id', '=', inboxId).executeTakeFirst()
  return Number(row?.message_count ?? 0)
}

/** Unread messages of the inbox: a count over the partial index `message_unread`, never the rows themselves. */
export async function countUnreadMessages(db: Db, inboxId: number): Promise<number> {
  const row = await db
    .selectFrom('message')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('inbox_id', '=', inboxId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * Marks one message of the inbox read (keeping when it was first read) or unread again. False when the inbox holds no
 * such message; `changed` is false when it already was in that state, so nothing cached need be dropped.
 */
export async function setMessageRead(db: Db, inboxId: number, id: number, read: boolean, now: number): Promise<{ found: boolean; changed: boolean }> {
  const result = await db
    .updateTable('message')
    .set({ read_at: read ? now : null })
    .where('id', '=', id)
    .where('inbox_id', '=', inboxId)
    .where('read_at', read ? 'is' : 'is not', null)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) > 0) return { found: true, changed: true }
  const exists = await db.selectFrom('message').select('id').where('id', '=', id).where('inbox_id', '=', inboxId).executeTakeFirst()
  return { found: exists !== undefined, changed: false }
}

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

/** New messages across all inboxes since `afterId` (ids only): what the change watcher fans out. */
export async function listNewMessageIds(db: Db, afterId: number, limit: number): Promise<{ id: number; inbox_id: number }[]> {
  return db.selectFrom('message').select(['id', 'inbox_id']).where('id', '>', afterId).orderBy('id', 'asc').limit(limit).execute()
}

export async function findMessagesByIds(db: Db, ids: number[]): Promise<MessageSummaryRow[]> {
  if (ids.length === 0) return []
  return selectMessagesWithContent(db).select(summaryColumns(db)).where('message.id', 'in', ids).orderBy('message.id', 'asc').execute()
}

export async function maxMessageId(db: Db): Promise<number> {
  const row = await db.selectFrom('message').select((eb) => eb.fn.max<number | null>('id').as('max')).executeTakeFirst()
  return row?.max ?? 0
}

export async function maxInboxMessageId(db: Db, inboxId: number): Promise<number> {
  const row = await db
    .selectFrom('message')
    .select((eb) => eb.fn.max<number | null>('id').as('max'))
    .where('inbox_id', '=', inboxId)
    .executeTakeFirst()
  return row?.max ?? 0
}

/** Removes the message from this inbox only; its content goes with the last inbox holding it (a trigger). */
export async function deleteMessage(db: Db, inboxId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('message').where('id', '=', id).where('inbox_id', '=', inboxId).executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}
