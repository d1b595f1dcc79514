import type { Db } from '@tempbox/db'

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

/** Removes the message from this inbox only; its content goes with the last inbox holding it (a trigger). */
export async function deleteMessage(db: Db, inboxId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('message').where('id', '=', id).where('inbox_id', '=', inboxId).executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}
