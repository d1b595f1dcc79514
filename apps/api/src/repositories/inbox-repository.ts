import type { Db, InboxRow } from '@tempbox/db'

export async function insertInbox(
  db: Db,
  values: {
    address: string
    localPart: string
    domain: string
    userId: number | null
    createdAt: number
    expiresAt: number
    burn?: InboxRow['burn']
  },
): Promise<InboxRow | null> {
  // The unique index on address decides races between two requests for the same name.
  const row = await db
    .insertInto('inbox')
    .values({
      address: values.address,
      local_part: values.localPart,
      domain: values.domain,
      user_id: values.userId,
      created_at: values.createdAt,
      expires_at: values.expiresAt,
      burn: values.burn ?? null,
    })
    .onConflict((oc) => oc.column('address').doNothing())
    .returningAll()
    .executeTakeFirst()
  return row ?? null
}

export async function findInboxByAddress(db: Db, address: string): Promise<InboxRow | undefined> {
  return db.selectFrom('inbox').selectAll().where('address', '=', address).executeTakeFirst()
}

/**
 * Saves a live address to an account: one nobody has saved yet, or one the account already holds. Undefined when the
 * address is unknown, expired or another account's.
 */
export async function assignInboxToUser(db: Db, address: string, userId: number, now: number) {
  return db
    .updateTable('inbox')
    .set({ user_id: userId })
    .where('address', '=', address)
    .where('expires_at', '>', now)
    .where((eb) => eb.or([eb('user_id', 'is', null), eb('user_id', '=', userId)]))
    .returning(['address', 'created_at', 'expires_at'])
    .executeTakeFirst()
}

/** One inbox with its messages and attachments (ON DELETE CASCADE); false when it was already gone. */
export async function deleteInbox(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('inbox').where('id', '=', id).executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** Which of these inboxes still exist and have not expired at `now` (ids only). */
export async function findLiveInboxIds(db: Db, ids: readonly number[], now: number): Promise<number[]> {
  if (ids.length === 0) return []
  const rows = await db.selectFrom('inbox').select('id').where('id', 'in', ids).where('expires_at', '>', now).execute()
  return rows.map((r) => r.id)
}

/** Expired inboxes go with their messages and attachments (ON DELETE CASCADE). Returns the deleted ids. */
export async function deleteExpiredInboxes(db: Db, now: number): Promise<number[]> {
  const rows = await db.deleteFrom('inbox').where('expires_at', '<=', now).returning('id').execute()
  return rows.map((r) => r.id)
}

/** Addresses not yet expired (an index range on expires_at). */
export async function countActiveInboxes(db: Db, now: number): Promise<number> {
  const row = await db.selectFrom('inbox').select((eb) => eb.fn.countAll<number>().as('n')).where('expires_at', '>', now).executeTakeFirstOrThrow()
  return Number(row.n)
}
