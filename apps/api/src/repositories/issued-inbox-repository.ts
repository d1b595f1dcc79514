import { recordIssuedAddress, type Db, type InboxRow } from '@tempbox/db'
import { insertInbox } from './inbox-repository.js'

/** Thrown inside the transaction to undo the inbox row when the address turns out to be retired. */
class Retired extends Error {}

/**
 * Creates an inbox and enters its address in the issued list in one transaction (issue 26): `taken` when a row holds
 * the address, `retired` when it was issued before and its block lasts (nothing is written then).
 */
export async function insertIssuedInbox(
  db: Db,
  values: Parameters<typeof insertInbox>[1],
  issued: { hash: Buffer; blockUntil: number },
): Promise<InboxRow | 'taken' | 'retired'> {
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await insertInbox(trx, values)
      if (!row) return 'taken'
      if (!(await recordIssuedAddress(trx, { hash: issued.hash, issuedAt: values.createdAt, blockUntil: issued.blockUntil }))) throw new Retired()
      return row
    })
  } catch (error) {
    if (error instanceof Retired) return 'retired'
    throw error
  }
}
