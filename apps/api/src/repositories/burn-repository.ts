import type { Db, InboxRow } from '@tempbox/db'

export interface InboxLifetime {
  burn: InboxRow['burn']
  expiresAt: number
  /** The end a burn timer shortened (given back when it is turned off); null when none did. */
  unburnedExpiresAt: number | null
}

/**
 * Sets how a live address ends, provided it still ends as `from` says (another request may have changed it since it
 * was read): undefined when it is gone or changed, so the caller reads it again.
 */
export async function setInboxLifetime(db: Db, id: number, from: Pick<InboxRow, 'burn' | 'expires_at'>, to: InboxLifetime, now: number) {
  return db
    .updateTable('inbox')
    .set({ burn: to.burn, expires_at: to.expiresAt, unburned_expires_at: to.unburnedExpiresAt })
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .where('expires_at', '=', from.expires_at)
    .where((eb) => (from.burn === null ? eb('burn', 'is', null) : eb('burn', '=', from.burn)))
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
