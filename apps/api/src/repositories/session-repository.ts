import type { AuthSessionRow, Db, UserRow } from '@tempbox/db'

export async function insertSession(db: Db, row: AuthSessionRow): Promise<void> {
  await db.insertInto('auth_session').values(row).execute()
}

/** Keeps the account's `keep` newest sessions and ends the rest (each sign-in adds one). */
export async function pruneSessions(db: Db, userId: number, keep: number): Promise<void> {
  await db
    .deleteFrom('auth_session')
    .where('user_id', '=', userId)
    .where('id', 'not in', (eb) => eb.selectFrom('auth_session').select('id').where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').limit(keep))
    .execute()
}

/** The account of an access token, and whether the session it names is still open: one primary-key read each. */
export async function findUserWithSession(db: Db, userId: number, sessionId: string, now: number): Promise<{ user: UserRow; open: boolean } | undefined> {
  const row = await db
    .selectFrom('user')
    .selectAll('user')
    .select((eb) =>
      eb
        .exists(eb.selectFrom('auth_session').select('auth_session.id').where('auth_session.id', '=', sessionId).where('auth_session.user_id', '=', userId).where('auth_session.expires_at', '>', now))
        .as('session_open'),
    )
    .where('user.id', '=', userId)
    .executeTakeFirst()
  if (!row) return undefined
  const { session_open: open, ...user } = row
  return { user, open: Boolean(open) }
}

export async function findSessionWithUser(db: Db, sessionId: string): Promise<{ session: AuthSessionRow; user: UserRow } | undefined> {
  const session = await db.selectFrom('auth_session').selectAll().where('id', '=', sessionId).executeTakeFirst()
  if (!session) return undefined
  const user = await db.selectFrom('user').selectAll().where('id', '=', session.user_id).executeTakeFirst()
  return user ? { session, user } : undefined
}

/** Replaces the session's secret only if it still is `previousHash`: of two renewals with one cookie, one wins. */
export async function rotateSessionSecret(db: Db, sessionId: string, previousHash: string, nextHash: string): Promise<boolean> {
  const result = await db.updateTable('auth_session').set({ secret_hash: nextHash }).where('id', '=', sessionId).where('secret_hash', '=', previousHash).executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('auth_session').where('id', '=', sessionId).execute()
}

export async function deleteSessionsOfUser(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('auth_session').where('user_id', '=', userId).execute()
}

export async function deleteExpiredSessions(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom('auth_session').where('expires_at', '<=', now).executeTakeFirst()
  return Number(result.numDeletedRows)
}
