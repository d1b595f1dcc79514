import { sql } from 'kysely'
import { jsonRecords, notAmongIds, type Db, type WebhookDeliveryRow, type WebhookDeliveryState, type WebhookRow } from '@tempbox/db'
import { findListRowsByIds, type ListRow } from './message-list-repository.js'

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

function selectDeliveries(db: Db) {
  return db
    .selectFrom('webhook_delivery as d')
    .innerJoin('webhook as w', 'w.id', 'd.webhook_id')
    .innerJoin('inbox as i', 'i.id', 'w.inbox_id')
    .select(['d.id', 'd.delivery_id', 'd.attempts', 'd.created_at', 'd.message_id', 'w.url', 'w.secret', 'i.address'])
    .where('d.state', '=', 'pending')
}

type DeliveryRow = Awaited<ReturnType<ReturnType<typeof selectDeliveries>['execute']>>[number]

async function withMessages(db: Db, rows: DeliveryRow[]): Promise<DueDelivery[]> {
  if (rows.length === 0) return []
  // A message's deliveries go with it (ON DELETE CASCADE), so each row finds its message.
  const messages = new Map((await findListRowsByIds(db, rows.map((r) => r.message_id))).map((m) => [m.id, m]))
  return rows.flatMap((r) => {
    const message = messages.get(r.message_id)
    if (!message) return []
    return [{ id: r.id, deliveryId: r.delivery_id, attempts: r.attempts, createdAt: r.created_at, url: r.url, secret: r.secret, address: r.address, message }]
  })
}

/**
 * Deliveries never attempted with an id above `after`, in id order: a range of the primary key, however many
 * deliveries are in flight below it. What the loop reads at every commit. On SQLite ids are taken inside the one
 * writer's transaction, so they commit in order and nothing is passed over; on PostgreSQL a delivery can commit below
 * the last id read, and the due scan (listDueDeliveries) finds it.
 */
export async function listNewDeliveries(db: Db, after: number, limit: number): Promise<DueDelivery[]> {
  const rows = await selectDeliveries(db).where('d.attempts', '=', 0).where('d.id', '>', after).orderBy('d.id').limit(limit).execute()
  return withMessages(db, rows)
}

/**
 * Where the keyset of listNewDeliveries starts after a (re)start: just below the oldest pending delivery (read from the
 * pending-only index), or past the last delivery when none is pending, so the first read does not walk every delivery
 * ever logged.
 */
export async function newDeliveriesStart(db: Db): Promise<number> {
  const pending = await db.selectFrom('webhook_delivery').select((eb) => eb.fn.min('id').as('id')).where('state', '=', 'pending').executeTakeFirst()
  if (pending?.id != null) return pending.id - 1
  const last = await db.selectFrom('webhook_delivery').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst()
  return last?.id ?? 0
}

/** Pending deliveries whose time has come, oldest first, leaving out those already in flight. */
export async function listDueDeliveries(db: Db, now: number, limit: number, skip: number[]): Promise<DueDelivery[]> {
  let query = selectDeliveries(db).where('d.next_attempt_at', '<=', now)
  if (skip.length > 0) query = query.where(notAmongIds(db, 'd.id', skip))
  return withMessages(db, await query.orderBy('d.next_attempt_at').limit(limit).execute())
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
 * as a transaction of one awaited UPDATE per attempt would. The batch goes as one JSON parameter: the statement's text
 * is the same for every batch (prepared once), and each attempt finds its row by primary key. A VALUES list of
 * placeholders made a new statement per batch size, and SQLite planned it as a walk over every pending delivery.
 */
export async function recordAttempts(db: Db, results: AttemptResult[]): Promise<void> {
  if (results.length === 0) return
  const batch = JSON.stringify(results.map((r) => ({ id: r.id, state: r.state, attempted_at: r.attemptedAt, next_attempt_at: r.nextAttemptAt, status_code: r.statusCode, error: r.error })))
  const attempts = jsonRecords(db, batch, 'attempt', {
    id: 'bigint', state: 'text', attempted_at: 'bigint', next_attempt_at: 'bigint', status_code: 'integer', error: 'text',
  })
  await sql`
    UPDATE webhook_delivery
    SET state = attempt.state, attempts = webhook_delivery.attempts + 1, last_attempt_at = attempt.attempted_at,
        next_attempt_at = attempt.next_attempt_at, last_status_code = attempt.status_code, last_error = attempt.error
    FROM ${attempts}
    WHERE webhook_delivery.id = attempt.id AND webhook_delivery.state = 'pending'
  `.execute(db)
}
