import { matchesAll, selectMessagesWithContent, type Db } from '@tempbox/db'

/** The newest message of an inbox after `afterId` that has a code (the code long poll); its quota bounds the scan. */
export async function findNewestCodeMessageId(db: Db, inboxId: number, afterId: number): Promise<number | null> {
  const row = await selectMessagesWithContent(db)
    .select('message.id')
    .where('message.inbox_id', '=', inboxId)
    .where('message.id', '>', afterId)
    .where(matchesAll(db, [{ kind: 'has_code' }]))
    .orderBy('message.id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.id ?? null
}
