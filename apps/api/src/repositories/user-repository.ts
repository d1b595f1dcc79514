import type { Db, NewUser, UserRow } from '@tempbox/db'

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('user').selectAll().where('email', '=', email).executeTakeFirst()
}

/** Null when the email is already taken (the unique index decides races). */
export async function insertUser(db: Db, values: NewUser): Promise<UserRow | null> {
  const row = await db
    .insertInto('user')
    .values(values)
    .onConflict((oc) => oc.column('email').doNothing())
    .returningAll()
    .executeTakeFirst()
  return row ?? null
}

/** Deletes the user and, through ON DELETE CASCADE, their inboxes, messages and attachments, in one transaction. */
export async function deleteUserCascade(db: Db, id: number): Promise<{ deleted: boolean; inboxes: { id: number; address: string }[] }> {
  return db.transaction().execute(async (trx) => {
    const inboxes = await trx.selectFrom('inbox').select(['id', 'address']).where('user_id', '=', id).execute()
    const result = await trx.deleteFrom('user').where('id', '=', id).executeTakeFirst()
    return { deleted: Number(result.numDeletedRows) > 0, inboxes }
  })
}

export async function listLiveInboxesOfUser(db: Db, userId: number, now: number) {
  return db
    .selectFrom('inbox')
    .select(['address', 'created_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute()
}

export async function ownerExists(db: Db): Promise<boolean> {
  const row = await db.selectFrom('user').select('id').where('role', '=', 'owner').limit(1).executeTakeFirst()
  return row !== undefined
}

/**
 * Makes the account the owner only if no owner exists yet, atomically: two concurrent promotions can't both win.
 * Returns the updated row, `closed` when an owner already exists, or `missing` when no account has this email.
 */
export async function promoteToOwnerIfNone(db: Db, email: string): Promise<UserRow | 'closed' | 'missing'> {
  return db.transaction().execute(async (trx) => {
    const owner = await trx.selectFrom('user').select('id').where('role', '=', 'owner').limit(1).executeTakeFirst()
    if (owner) return 'closed' as const
    const row = await trx.updateTable('user').set({ role: 'owner' }).where('email', '=', email).returningAll().executeTakeFirst()
    return row ?? ('missing' as const)
  })
}

export async function setUserRole(db: Db, id: number, role: string): Promise<void> {
  await db.updateTable('user').set({ role }).where('id', '=', id).execute()
}
