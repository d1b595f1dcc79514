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

/** The fact recorded by the first promotion; it is never removed, so setup stays closed whoever is deleted later. */
export const OWNER_SETUP_DONE = 'owner_setup_done'

export async function isOwnerSetupDone(db: Db): Promise<boolean> {
  const row = await db.selectFrom('site_fact').select('name').where('name', '=', OWNER_SETUP_DONE).executeTakeFirst()
  return row !== undefined
}

/**
 * Makes the account the first owner and closes setup, in one transaction. Recording the fact is the transaction's
 * first statement and a primary-key insert, so of two promotions at the same moment (in any process) exactly one
 * inserts it; the other finds it there. Returns the updated row, `closed`, or `missing` (nothing is recorded then).
 */
export async function promoteFirstOwner(db: Db, userId: number, now: number): Promise<UserRow | 'closed' | 'missing'> {
  try {
    return await db.transaction().execute(async (trx) => {
      const claimed = await trx.insertInto('site_fact').values({ name: OWNER_SETUP_DONE, created_at: now }).onConflict((oc) => oc.doNothing()).executeTakeFirst()
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) === 0) return 'closed' as const
      const row = await trx.updateTable('user').set({ role: 'owner' }).where('id', '=', userId).returningAll().executeTakeFirst()
      if (!row) throw new MissingUser()
      return row
    })
  } catch (err) {
    if (err instanceof MissingUser) return 'missing'
    throw err
  }
}

/** Thrown inside a transaction to roll it back. */
class MissingUser extends Error {}

/**
 * The operator's promotion (`pnpm owner:promote`): makes the account an owner whatever setup's state, and records
 * setup as done, since the site has an owner now. `already` when it was one (nothing changes), `missing` when no such account.
 */
export async function promoteOwnerByEmail(db: Db, email: string, now: number): Promise<'promoted' | 'already' | 'missing'> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('user').select(['id', 'role']).where('email', '=', email).executeTakeFirst()
    if (!user) return 'missing' as const
    await trx.insertInto('site_fact').values({ name: OWNER_SETUP_DONE, created_at: now }).onConflict((oc) => oc.doNothing()).execute()
    if (user.role === 'owner') return 'already' as const
    await trx.updateTable('user').set({ role: 'owner' }).where('id', '=', user.id).execute()
    return 'promoted' as const
  })
}

/**
 * Sets an account's role; refuses (`last_owner`) to take the role from the only owner, since setup never reopens to
 * make another. One transaction, so two owners demoting each other at once can't leave none.
 */
export async function changeUserRole(db: Db, email: string, role: string): Promise<UserRow | 'missing' | 'last_owner'> {
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('user').selectAll().where('email', '=', email).executeTakeFirst()
    if (!user) return 'missing' as const
    if (user.role === 'owner' && role !== 'owner') {
      const owners = await trx.selectFrom('user').select((eb) => eb.fn.countAll<number>().as('n')).where('role', '=', 'owner').executeTakeFirstOrThrow()
      if (Number(owners.n) <= 1) return 'last_owner' as const
    }
    return (await trx.updateTable('user').set({ role }).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow())
  })
}

/**
 * Raises the token version (revoking every token signed before) and ends every session of the account, in one
 * transaction; with `passwordHash`, also sets the new password.
 */
export async function raiseTokenVersion(db: Db, id: number, passwordHash?: string): Promise<UserRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('user')
      .set((eb) => ({ token_version: eb('token_version', '+', 1), ...(passwordHash ? { password_hash: passwordHash } : {}) }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst()
    await trx.deleteFrom('auth_session').where('user_id', '=', id).execute()
    return row
  })
}

export async function setUserRole(db: Db, id: number, role: string): Promise<void> {
  await db.updateTable('user').set({ role }).where('id', '=', id).execute()
}
