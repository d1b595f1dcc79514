import type { Db, InboxRow } from '@tempbox/db'

export async function insertInbox(
  db: Db,
  values: { address: string; localPart: string; domain: string; userId: number | null; createdAt: number; expiresAt: number },
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
    })
    .onConflict((oc) => oc.column('address').doNothing())
    .returningAll()
    .executeTakeFirst()
  return row ?? null
}

export async function findInboxByAddress(db: Db, address: string): Promise<InboxRow | undefined> {
  return db.selectFrom('inbox').selectAll().where('address', '=', address).executeTakeFirst()
}

/** Expired inboxes go with their messages and attachments (ON DELETE CASCADE). Returns the deleted ids. */
export async function deleteExpiredInboxes(db: Db, now: number): Promise<number[]> {
  const rows = await db.deleteFrom('inbox').where('expires_at', '<=', now).returning('id').execute()
  return rows.map((r) => r.id)
}
