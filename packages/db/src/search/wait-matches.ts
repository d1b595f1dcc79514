import type { Db } from '../create-db.js'
import { selectMessagesWithContent } from '../messages.js'
import { engineOf } from '../postgres-db.js'
import { MAX_SLICE, myTurn, SLICE_TARGET_MS } from './inbox-search.js'
import { indexNarrowing } from './index-lookup.js'
import { matchAll, type MessageCondition } from './message-filter.js'

/**
 * The oldest `limit` messages of an inbox newer than `afterId` meeting all conditions (the filtered long poll): the
 * search's bounded path, oldest first — slices taking turns with searches, the index's candidates only, and no more
 * than `budgetMs` in all (a wait cut short checks again at the next mail).
 */
export async function findMatchesAfter(
  db: Db,
  inboxId: number,
  afterId: number,
  conditions: readonly MessageCondition[],
  { limit, budgetMs }: { limit: number; budgetMs: number },
): Promise<number[]> {
  const started = performance.now()
  const match = matchAll(conditions, engineOf(db))
  const narrow = await indexNarrowing(db, inboxId, conditions, budgetMs / 2)
  if (narrow === 'none') return []
  const found: number[] = []
  let cursor = afterId
  let slice = 1
  for (;;) {
    await myTurn()
    const t = performance.now()
    const asked = slice
    const rows = await db
      .selectFrom('message')
      .select(['id', 'message_content_id'])
      .where('inbox_id', '=', inboxId)
      .where('id', '>', cursor)
      .orderBy('id', 'asc')
      .limit(slice)
      .execute()
    if (rows.length === 0) return found
    const ids = narrow === null ? rows.map((r) => r.id) : await narrow(rows)
    if (ids.length > 0) {
      const matched = await selectMessagesWithContent(db).select('message.id').where('message.inbox_id', '=', inboxId).where('message.id', 'in', ids).where(match).orderBy('message.id', 'asc').execute()
      for (const m of matched) if (found.length < limit) found.push(m.id)
    }
    cursor = rows[rows.length - 1]!.id
    const spent = performance.now() - t
    slice = Math.max(1, Math.min(MAX_SLICE, slice * 2, Math.round((slice * SLICE_TARGET_MS) / Math.max(spent, 0.1))))
    if (found.length >= limit || rows.length < asked || performance.now() - started >= budgetMs) return found
  }
}
