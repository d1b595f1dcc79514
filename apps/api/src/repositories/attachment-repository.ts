import type { AttachmentRow, Db } from '@tempbox/db'

export type AttachmentMetaRow = Omit<AttachmentRow, 'content'>

/** Attachments belong to a message's content, shared by every inbox it went to. */
export async function listAttachments(db: Db, messageContentId: number): Promise<AttachmentMetaRow[]> {
  return db
    .selectFrom('attachment')
    .select(['id', 'message_content_id', 'position', 'filename', 'content_type', 'size', 'content_id', 'is_inline'])
    .where('message_content_id', '=', messageContentId)
    .orderBy('position', 'asc')
    .execute()
}

export async function findAttachment(db: Db, messageContentId: number, position: number): Promise<AttachmentRow | undefined> {
  return db.selectFrom('attachment').selectAll().where('message_content_id', '=', messageContentId).where('position', '=', position).executeTakeFirst()
}
