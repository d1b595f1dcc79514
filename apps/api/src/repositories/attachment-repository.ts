import { sql } from 'kysely'
import { VIEW_HEADER_LIMITS, type AttachmentRow, type Db } from '@tempbox/db'

export type AttachmentMetaRow = Omit<AttachmentRow, 'content'>

/**
 * The first `limit` attachments by position, and whether more follow (one row more is read to know, never all: a
 * mail can carry thousands). Attachments belong to a message's content, shared by every inbox it went to. Filename,
 * type and Content-ID come from headers, so the view gets them cut at the header display limit (a 1 MB Content-Type is
 * otherwise sent on every read); the download (findAttachment) reads them whole.
 */
export async function listAttachments(db: Db, messageContentId: number, limit: number): Promise<{ attachments: AttachmentMetaRow[]; more: boolean }> {
  const cut = (column: 'filename' | 'content_type') => sql<string>`substr(${sql.ref(column)}, 1, ${VIEW_HEADER_LIMITS.valueChars})`.as(column)
  const rows = await db
    .selectFrom('attachment')
    .select(['id', 'message_content_id', 'position', cut('filename'), cut('content_type'), 'size', 'is_inline'])
    .select(sql<string | null>`substr(content_id, 1, ${VIEW_HEADER_LIMITS.valueChars})`.as('content_id'))
    .where('message_content_id', '=', messageContentId)
    .orderBy('position', 'asc')
    .limit(limit + 1)
    .execute()
  return { attachments: rows.slice(0, limit), more: rows.length > limit }
}

export async function findAttachment(db: Db, messageContentId: number, position: number): Promise<AttachmentRow | undefined> {
  return db.selectFrom('attachment').selectAll().where('message_content_id', '=', messageContentId).where('position', '=', position).executeTakeFirst()
}
