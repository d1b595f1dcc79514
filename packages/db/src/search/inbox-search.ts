import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Db } from '../create-db.js'
import { selectMessagesWithContent } from '../messages.js'
import { engineOf } from '../postgres-db.js'
import { indexNarrowing, type SliceRow } from './index-lookup.js'
import { matchAll, type MessageCondition } from './message-filter.js'

/** What one slice of the scan aims to cost: SQLite runs it on the api's only event loop, so other requests wait that long. */
export const SLICE_TARGET_MS = 5
export const MAX_SLICE = 500

/**
 * Slices of all searches of this process take turns, one per event-loop turn: three searches at once then hold the
 * loop no longer than one does (each yielding on its own let their three slices run back to back, 50 ms and more).
 */
let queue: Promise<void> = Promise.resolve()
export function myTurn(): Promise<void> {
  const turn = queue.then(() => nextTurn())
  queue = turn
  return turn
}

export interface SearchPage {
  /** Matching message ids of the page, newest first. */
  ids: number[]
  /** Matches found in all: every one unless `cut`, then those in the part scanned. */
  total: number
  /** Pass as `before` for the next page: the last id shown, or where a cut scan stopped; null when nothing older remains. */
  nextBefore: number | null
  /** True when the time budget ran out before the whole inbox was scanned. */
  cut: boolean
}

/**
 * One page of an inbox's messages meeting the conditions, and how many match in all: the inbox scanned newest first in
 * slices of messages (keyset on id), yielding to the event loop between slices, so other requests are answered during
 * a long search, and stopping when `budgetMs` is spent. The page's part (older than `before`) is scanned first, then the
 * rest for the total; a slice's size follows its measured cost so each takes about SLICE_TARGET_MS. Terms of 3 or more
 * characters are looked up in the trigram index for the slice's contents first, so only copies that may match are read.
 */
export async function searchInboxPage(
  db: Db,
  inboxId: number,
  conditions: readonly MessageCondition[],
  { limit, before, budgetMs }: { limit: number; before: number | null; budgetMs: number },
): Promise<SearchPage> {
  const started = performance.now()
  const engine = engineOf(db)
  const match = matchAll(conditions, engine)
  // One message first: a message's copy can cost milliseconds per term; the slice grows from what it measures.
  let slice = 1
  let total = 0
  const page: number[] = []

  // Index lookups at most half the budget (PostgreSQL's once per search), so the scan keeps the rest. The lookup takes
  // its turn like a slice: searches answered by the index alone run back to back, one per turn, not all in one.
  await myTurn()
  const narrow = await indexNarrowing(db, inboxId, conditions, budgetMs / 2)
  if (narrow === 'none') return { ids: [], total: 0, nextBefore: null, cut: false }
  /** The slice's messages meeting the conditions, newest first: the index's candidates only, their copies read. */
  const matchesIn = async (rows: SliceRow[]): Promise<{ id: number }[]> => {
    const query = selectMessagesWithContent(db).select('message.id').where('message.inbox_id', '=', inboxId)
    if (narrow === null) return query.where('message.id', '<=', rows[0]!.id).where('message.id', '>=', rows[rows.length - 1]!.id).where(match).orderBy('message.id', 'desc').execute()
    const ids = await narrow(rows)
    return ids.length === 0 ? [] : query.where('message.id', 'in', ids).where(match).orderBy('message.id', 'desc').execute()
  }

  /** Where a scan cut by the budget stopped: the oldest id it looked at. */
  const stopped = { at: null as number | null }
  /** Scans ids in [low, high) newest first; false when the budget ran out. */
  const scan = async (high: number | null, low: number | null, onMatch: (id: number) => void): Promise<boolean> => {
    let cursor = high
    for (;;) {
      await myTurn()
      const t = performance.now()
      const asked = slice
      let ids = db.selectFrom('message').select(['id', 'message_content_id']).where('inbox_id', '=', inboxId)
      if (cursor !== null) ids = ids.where('id', '<', cursor)
      if (low !== null) ids = ids.where('id', '>=', low)
      const rows = await ids.orderBy('id', 'desc').limit(slice).execute()
      if (rows.length === 0) return true
      const oldest = rows[rows.length - 1]!.id
      const matched = await matchesIn(rows)
      for (const m of matched) onMatch(m.id)
      cursor = oldest
      const spent = performance.now() - t
      slice = Math.max(1, Math.min(MAX_SLICE, slice * 2, Math.round((slice * SLICE_TARGET_MS) / Math.max(spent, 0.1))))
      if (rows.length < asked) return true
      if (performance.now() - started >= budgetMs) {
        stopped.at = oldest
        return false
      }
    }
  }

  const whole = await scan(before, null, (id) => {
    total++
    if (page.length <= limit) page.push(id)
  })
  const resumeAt = stopped.at
  const rest = whole && before !== null ? await scan(null, before, () => total++) : true
  const more = page.length > limit
  if (more) page.pop()
  const nextBefore = more ? page[page.length - 1]! : whole ? null : resumeAt
  return { ids: page, total, nextBefore, cut: !whole || !rest }
}
