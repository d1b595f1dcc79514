import type { AttachmentRow, Db } from '@tempbox/db'

export type AttachmentMetaRow = Omit<AttachmentRow, 'content'>

export async function listAttachments(db: Db, messageId: number): Promise<AttachmentMetaRow[]> {
  return db
    .selectFrom('attachment')
    .select(['id', 'message_id', 'position', 'filename', 'content_type', 'size', 'content_id', 'is_inline'])
    .where('message_id', '=', messageId)
    .orderBy('position', 'asc')
    .execute()
}

export async function findAttachment(db: Db, messageId: number, position: number): Promise<AttachmentRow | undefined> {
  return db.selectFrom('attachment').selectAll().where('message_id', '=', messageId).where('position', '=', position).executeTakeFirst()
}
