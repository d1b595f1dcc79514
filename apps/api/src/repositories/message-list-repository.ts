import { sql } from 'kysely'
import { hasHtml, selectMessagesWithContent, type Db, type MessageContentRow, type MessageRow } from '@tempbox/db'

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
 * The inbox's messages and the unread ones among them, from the counters its row keeps (the database's own triggers
 * move them with every message row and every change of read state, on both engines): one primary-key read, where a
 * count walked the inbox's index, 20,000 entries for a full CI inbox, at every listing built.
 */
export async function inboxCounts(db: Db, inboxId: number): Promise<{ total: number; unread: number }> {
  const row = await db.selectFrom('inbox').select(['message_count', 'unread_count']).where('id', '=', inboxId).executeTakeFirst()
  return { total: Number(row?.message_count ?? 0), unread: Number(row?.unread_count ?? 0) }
}

/** New messages across all inboxes since `afterId` (ids only): what the change watcher fans out. */
export async function listNewMessageIds(db: Db, afterId: number, limit: number): Promise<{ id: number; inbox_id: number }[]> {
  return db.selectFrom('message').select(['id', 'inbox_id']).where('id', '>', afterId).orderBy('id', 'asc').limit(limit).execute()
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
