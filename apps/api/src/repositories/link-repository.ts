import type { Db, ShortLinkRow } from '@tempbox/db'

/** Inserts a link; null when the code is already taken (the unique index decides races). */
export async function insertLink(db: Db, values: { code: string; targetUrl: string; createdAt: number; secretHash: string }): Promise<ShortLinkRow | null> {
  const row = await db
    .insertInto('short_link')
    .values({ code: values.code, target_url: values.targetUrl, created_at: values.createdAt, secret_hash: values.secretHash })
    .onConflict((oc) => oc.column('code').doNothing())
    .returningAll()
    .executeTakeFirst()
  return row ?? null
}

export async function findLinksByCodes(db: Db, codes: readonly string[]): Promise<ShortLinkRow[]> {
  if (codes.length === 0) return []
  return db.selectFrom('short_link').selectAll().where('code', 'in', codes).orderBy('created_at', 'desc').orderBy('id', 'desc').execute()
}

/** Counts one click and returns the target in the same statement, so concurrent clicks are never lost. */
export async function countClick(db: Db, code: string): Promise<string | null> {
  const row = await db
    .updateTable('short_link')
    .set((eb) => ({ clicks: eb('clicks', '+', 1) }))
    .where('code', '=', code)
    .returning('target_url')
    .executeTakeFirst()
  return row?.target_url ?? null
}
