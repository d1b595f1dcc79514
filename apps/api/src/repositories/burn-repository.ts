import type { Db, InboxRow } from '@tempbox/db'

/** Sets how a live address ends: its burn mode and the expiry the sweep deletes it at. Undefined when it is gone. */
export async function setInboxLifetime(db: Db, id: number, burn: InboxRow['burn'], expiresAt: number, now: number) {
  return db
    .updateTable('inbox')
    .set({ burn, expires_at: expiresAt })
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .returning(['address', 'expires_at', 'burn'])
    .executeTakeFirst()
}

/**
 * Deletes the inbox (its mail goes by cascade) when it burns on read. Decided by the database row, not a cached one,
 * so a burn set through another API process is still honoured.
 */
export async function deleteIfBurnsOnRead(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('inbox').where('id', '=', id).where('burn', '=', 'read').executeTakeFirst()
  return result.numDeletedRows > 0n
}
