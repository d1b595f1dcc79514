import { type Kysely, type Selectable, type Transaction } from 'kysely'
import type { Database, DeliveryLogTable, DeliveryResult } from './schema.js'

/** DELIVERY_LOG_ENTRIES' default: the newest transactions each inbox keeps. */
export const DEFAULT_DELIVERY_LOG_ENTRIES = 100

/** Why a transaction ended as it did (`delivery_log.reason`); the API and web turn each into a sentence. */
export type DeliveryReason =
  | 'accepted' | 'mailbox_full' | 'too_big' | 'storage_full' | 'fault_greylist' | 'fault_tempfail' | 'fault_reject'
  | 'fault_disconnect' | 'fault_full' | 'fault_slow' | 'sender_domain_unknown' | 'too_many_recipients' | 'guess_limited'
  | 'store_failed' | 'busy'

/** An entry to record: one inbox named in one SMTP transaction. */
export interface DeliveryEntry {
  inboxId: number
  at: number
  result: DeliveryResult
  replyCode: number
  enhancedStatus: string
  reason: DeliveryReason
  size: number | null
  tag: string | null
  messageId: number | null
}

export type DeliveryRow = Selectable<DeliveryLogTable>

type Queryable = Kysely<Database> | Transaction<Database>

/** Rows per INSERT: 10 columns each stays far below SQLite's 32,766 parameters and PostgreSQL's 65,535. */
const ROWS_PER_INSERT = 500

/**
 * Inserts the entries in one transaction, then keeps only the newest `keep` of each inbox they touched. For refused
 * and deferred transactions, batched by mail-ingest; an accepted one is written by the message writer in its commit.
 * Entries of an inbox deleted meanwhile are dropped, not an error.
 */
export async function recordDeliveries(db: Kysely<Database>, entries: readonly DeliveryEntry[], { keep }: { keep: number }): Promise<void> {
  if (entries.length === 0) return
  await db.transaction().execute(async (trx) => {
    // Only inboxes that still exist: one deleted since its SMTP transaction would fail the whole batch's foreign key.
    const touched = [...new Set(entries.map((e) => e.inboxId))]
    const live = new Set((await trx.selectFrom('inbox').select('id').where('id', 'in', touched).execute()).map((r) => Number(r.id)))
    const rows = entries.filter((e) => live.has(e.inboxId)).map(rowOf)
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      await trx.insertInto('delivery_log').values(rows.slice(start, start + ROWS_PER_INSERT)).execute()
    }
    for (const inboxId of live) await trimDeliveries(trx, inboxId, keep)
  })
}

/** Deletes all but the newest `keep` entries of the inbox. */
export async function trimDeliveries(db: Queryable, inboxId: number, keep: number): Promise<void> {
  await db
    .deleteFrom('delivery_log')
    .where('inbox_id', '=', inboxId)
    .where('id', '<=', (eb) =>
      eb.selectFrom('delivery_log').select('id').where('inbox_id', '=', inboxId).orderBy('id', 'desc').limit(1).offset(keep),
    )
    .execute()
}

/**
 * An inbox's entries, newest first: by time, then id (a batched refusal is written after an acceptance that came
 * later, so ids alone are not in time order). `before` is an entry id: the entries after it in that order (the next
 * page's cursor); `after` keeps those at or after a time (ms).
 */
export async function listDeliveries(db: Queryable, inboxId: number, options: { before?: number; after?: number; limit: number }): Promise<DeliveryRow[]> {
  let query = db.selectFrom('delivery_log').selectAll().where('inbox_id', '=', inboxId)
  if (options.before !== undefined) {
    const cursor = await db.selectFrom('delivery_log').select('at').where('id', '=', options.before).where('inbox_id', '=', inboxId).executeTakeFirst()
    const before = options.before
    // A cursor entry trimmed away meanwhile: its id still orders the rest (close to time order).
    query = cursor
      ? query.where((eb) => eb.or([eb('at', '<', cursor.at), eb.and([eb('at', '=', cursor.at), eb('id', '<', before)])]))
      : query.where('id', '<', before)
  }
  if (options.after !== undefined) query = query.where('at', '>=', options.after)
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(options.limit).execute()
}

function rowOf(e: DeliveryEntry) {
  return {
    inbox_id: e.inboxId, at: e.at, result: e.result, reply_code: e.replyCode, enhanced_status: e.enhancedStatus, reason: e.reason,
    size: e.size, tag: e.tag, message_id: e.messageId,
  }
}
