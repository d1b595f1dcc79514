import type { Db, MessageAuthRow } from '@tempbox/db'

/** The sender check of one message of an inbox (stored per content, so shared by every inbox that got the mail). */
export async function findMessageAuth(db: Db, inboxId: number, messageId: number): Promise<MessageAuthRow | undefined> {
  return db
    .selectFrom('message')
    .innerJoin('message_auth', 'message_auth.message_content_id', 'message.message_content_id')
    .selectAll('message_auth')
    .where('message.id', '=', messageId)
    .where('message.inbox_id', '=', inboxId)
    .executeTakeFirst()
}
