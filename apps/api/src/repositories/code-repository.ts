import { matchAll } from './message-filter.js'
import { engineOf, selectMessagesWithContent, type Db } from '@tempbox/db'

/** The newest message of an inbox after `afterId` that has a code (the code long poll); its quota bounds the scan. */
export async function findNewestCodeMessageId(db: Db, inboxId: number, afterId: number): Promise<number | null> {
  const row = await selectMessagesWithContent(db)
    .select('message.id')
    .where('message.inbox_id', '=', inboxId)
    .where('message.id', '>', afterId)
    .where(matchAll([{ kind: 'has_code' }], engineOf(db)))
    .orderBy('message.id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.id ?? null
}
