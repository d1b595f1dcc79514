import { sql } from 'kysely'
import { engineOf, type Db, type WebhookDeliveryRow, type WebhookDeliveryState, type WebhookRow } from '@tempbox/db'
import { findListRowsByIds, type ListRow } from './message-repository.js'

export async function findWebhook(db: Db, inboxId: number): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhook').selectAll().where('inbox_id', '=', inboxId).executeTakeFirst()
}

/** Sets the inbox's webhook, replacing URL and secret of an existing one (its queued deliveries go to the new URL). */
export async function upsertWebhook(db: Db, values: { inboxId: number; url: string; secret: string; createdAt: number }): Promise<WebhookRow> {
  return db
    .insertInto('webhook')
    .values({ inbox_id: values.inboxId, url: values.url, secret: values.secret, created_at: values.createdAt })
    .onConflict((oc) => oc.column('inbox_id').doUpdateSet({ url: values.url, secret: values.secret, created_at: values.createdAt }))
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Removes the webhook and, with it, its queued deliveries and their log (ON DELETE CASCADE). */
export async function deleteWebhook(db: Db, inboxId: number): Promise<boolean> {
  const result = await db.deleteFrom('webhook').where('inbox_id', '=', inboxId).executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

export async function listRecentDeliveries(db: Db, webhookId: number, limit: number): Promise<WebhookDeliveryRow[]> {
  return db.selectFrom('webhook_delivery').selectAll().where('webhook_id', '=', webhookId).orderBy('id', 'desc').limit(limit).execute()
}

/** The caps the enqueue trigger applies; the API writes its configuration here at start. */
export async function setQueueCaps(db: Db, maxPending: number, maxPendingPerInbox: number): Promise<void> {
  await db.updateTable('webhook_queue').set({ max_pending: maxPending, max_pending_per_inbox: maxPendingPerInbox }).where('id', '=', 1).execute()
}

export async function queueCounters(db: Db): Promise<{ pending: number; dropped: number }> {
  const row = await db.selectFrom('webhook_queue').select(['pending', 'dropped']).where('id', '=', 1).executeTakeFirst()
  return { pending: row?.pending ?? 0, dropped: row?.dropped ?? 0 }
}

/** Everything one attempt needs: where, with which key, and the message it announces. */
export interface DueDelivery {
  id: number
  deliveryId: string
  attempts: number
  createdAt: number
  url: string
  secret: string
  address: string
  /** What the payload's summary is built from: the listing's columns, not the whole row (no sanitized HTML). */
  message: ListRow
}

/** Pending deliveries whose time has come, oldest first, leaving out those already in flight. */
export async function listDueDeliveries(db: Db, now: number, limit: number, skip: number[]): Promise<DueDelivery[]> {
  let query = db
    .selectFrom('webhook_delivery as d')
    .innerJoin('webhook as w', 'w.id', 'd.webhook_id')
    .innerJoin('inbox as i', 'i.id', 'w.inbox_id')
    .select(['d.id', 'd.delivery_id', 'd.attempts', 'd.created_at', 'd.message_id', 'w.url', 'w.secret', 'i.address'])
    .where('d.state', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
  // One parameter however many are skipped: a list of thousands of placeholders costs more to build and bind than the read.
  if (skip.length > 0) {
    query = query.where(
      engineOf(db) === 'postgres'
        ? sql<boolean>`d.id <> all(cast(${skip} as bigint[]))`
        : sql<boolean>`d.id NOT IN (SELECT value FROM json_each(${JSON.stringify(skip)}))`,
    )
  }
  const rows = await query.orderBy('d.next_attempt_at').limit(limit).execute()
  if (rows.length === 0) return []
  // A message's deliveries go with it (ON DELETE CASCADE), so each row finds its message.
  const messages = new Map((await findListRowsByIds(db, rows.map((r) => r.message_id))).map((m) => [m.id, m]))
  return rows.flatMap((r) => {
    const message = messages.get(r.message_id)
    if (!message) return []
    return [{ id: r.id, deliveryId: r.delivery_id, attempts: r.attempts, createdAt: r.created_at, url: r.url, secret: r.secret, address: r.address, message }]
  })
}

/** When the next pending delivery falls due, or null when none is queued. */
export async function nextDueAt(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('webhook_delivery')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('state', '=', 'pending')
    .executeTakeFirst()
  return row?.at ?? null
}

export interface AttemptResult {
  id: number
  state: WebhookDeliveryState
  attemptedAt: number
  nextAttemptAt: number
  statusCode: number | null
  error: string | null
}

/**
 * Records a batch of attempts in one statement: one fsync for many deliveries, and the database's write lock (which
 * mail-ingest needs to store mail) held only while SQLite runs it — never across turns of this process's event loop,
 * as a transaction of one awaited UPDATE per attempt would.
 */
// The casts give PostgreSQL the VALUES' column types (its parameters are untyped there); SQLite takes them as no-ops.
export async function recordAttempts(db: Db, results: AttemptResult[]): Promise<void> {
  if (results.length === 0) return
  const rows = sql.join(results.map((r) => sql`(cast(${r.id} as bigint), cast(${r.state} as text), cast(${r.attemptedAt} as bigint), cast(${r.nextAttemptAt} as bigint), cast(${r.statusCode} as integer), cast(${r.error} as text))`))
  await sql`
    WITH attempt(id, state, attempted_at, next_attempt_at, status_code, error) AS (VALUES ${rows})
    UPDATE webhook_delivery
    SET state = attempt.state, attempts = webhook_delivery.attempts + 1, last_attempt_at = attempt.attempted_at,
        next_attempt_at = attempt.next_attempt_at, last_status_code = attempt.status_code, last_error = attempt.error
    FROM attempt
    WHERE webhook_delivery.id = attempt.id AND webhook_delivery.state = 'pending'
  `.execute(db)
}
