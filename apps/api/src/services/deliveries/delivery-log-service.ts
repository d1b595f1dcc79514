import { listDeliveries, type Db, type DeliveryRow, type InboxRow } from '@tempbox/db'
import { MAX_NEAR_MISSES, type DeliveriesResponse, type DeliveryEntry, type NearMisses } from '@tempbox/types'
import { findNearMisses, receivedAtOf, type NamedCondition } from '../../repositories/near-miss-repository.js'
import { senderDisplay } from '../messages/message-view.js'
import { reasonText } from './reason-text.js'

/** Entries read to find a wait's refusals among its accepted ones: the log keeps no more than this by default. */
const NEAR_MISS_SCAN = 100

/** The delivery log as the API shows it (mail-ingest writes it): pages of it, and what a timed-out wait missed. */
export class DeliveryLogService {
  constructor(private readonly db: Db) {}

  /** Newest first; `before` is an entry id cursor, like the listing's. */
  async page(inbox: InboxRow, limit: number, before: number | null): Promise<DeliveriesResponse> {
    const rows = await listDeliveries(this.db, inbox.id, { ...(before === null ? {} : { before }), limit: limit + 1 })
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    return { deliveries: await this.entries(inbox, page), nextBefore: rows.length > limit && last ? String(last.id) : null }
  }

  /**
   * Messages newer than `sinceId` that missed a filter, and deliveries refused or deferred in the same window: from
   * the arrival of message `sinceId` when the client named it (so polling again keeps its window), else from `startedAt`.
   * Both bounded: a wait that times out on a busy inbox answers with a page, and `more` says so.
   */
  async nearMisses(inbox: InboxRow, sinceId: number, sinceGiven: boolean, startedAt: number, conditions: readonly NamedCondition[]): Promise<NearMisses> {
    const from = !sinceGiven ? startedAt : sinceId === 0 ? 0 : ((await receivedAtOf(this.db, inbox.id, sinceId)) ?? startedAt)
    const [missed, logged] = await Promise.all([
      findNearMisses(this.db, inbox.id, sinceId, conditions, MAX_NEAR_MISSES + 1),
      listDeliveries(this.db, inbox.id, { after: from, limit: NEAR_MISS_SCAN }),
    ])
    const refused = logged.filter((row) => row.result !== 'accepted')
    return {
      messages: missed.slice(0, MAX_NEAR_MISSES).map((row) => ({
        messageId: String(row.id),
        subject: row.subject,
        from: senderDisplay(row.from_name, row.from_address),
        receivedAt: new Date(row.received_at).toISOString(),
        failed: row.failed,
      })),
      deliveries: await this.entries(inbox, refused.slice(0, MAX_NEAR_MISSES)),
      more: missed.length > MAX_NEAR_MISSES || refused.length > MAX_NEAR_MISSES,
    }
  }

  /** A stored message can be gone since (read and deleted, expired): only a live one is linked. */
  private async entries(inbox: InboxRow, rows: readonly DeliveryRow[]): Promise<DeliveryEntry[]> {
    const ids = rows.flatMap((row) => (row.message_id === null ? [] : [row.message_id]))
    const live = new Set<number>()
    if (ids.length > 0) {
      const found = await this.db.selectFrom('message').select('id').where('inbox_id', '=', inbox.id).where('id', 'in', ids).execute()
      for (const { id } of found) live.add(id)
    }
    return rows.map((row) => ({
      id: String(row.id),
      at: new Date(row.at).toISOString(),
      result: row.result,
      replyCode: row.reply_code,
      enhancedStatus: row.enhanced_status,
      reason: row.reason,
      reasonText: reasonText(row.reason, row.reply_code, row.enhanced_status),
      size: row.size,
      tag: row.tag,
      messageId: row.message_id !== null && live.has(row.message_id) ? String(row.message_id) : null,
    }))
  }
}
