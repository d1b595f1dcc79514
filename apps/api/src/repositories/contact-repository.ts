import type { ContactMessageRow, Db, NewContactMessage } from '@tempbox/db'

export async function insertContactMessage(db: Db, values: NewContactMessage): Promise<number> {
  const row = await db.insertInto('contact_message').values(values).returning('id').executeTakeFirstOrThrow()
  return row.id
}

/** Newest first. */
export async function listContactMessages(db: Db, offset: number, limit: number): Promise<{ rows: ContactMessageRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.selectFrom('contact_message').selectAll().orderBy('submitted_at', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    db.selectFrom('contact_message').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}

export async function updateContactStatus(db: Db, id: number, status: string): Promise<ContactMessageRow | undefined> {
  return db.updateTable('contact_message').set({ status }).where('id', '=', id).returningAll().executeTakeFirst()
}

export async function countContactsSince(db: Db, since: number): Promise<number> {
  const row = await db
    .selectFrom('contact_message')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('submitted_at', '>=', since)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
