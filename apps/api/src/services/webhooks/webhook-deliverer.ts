import { lateCommits, type Db } from '@tempbox/db'
import type { MessageSummary, WebhookPayload } from '@tempbox/types'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../config.js'
import type { ApiMetrics, WebhookOutcome } from '../../metrics/api-metrics.js'
import type { ListRow } from '../../repositories/message-repository.js'
import { listDueDeliveries, newDeliveriesStart, listNewDeliveries, nextDueAt, recordAttempts, type AttemptResult, type DueDelivery } from '../../repositories/webhook-repository.js'
import type { MailWatcher } from '../messages/mail-watcher.js'
import { attachmentUrl } from '../messages/message-view.js'
import { postWebhook, signature, TargetPools, type SendResult } from './webhook-sender.js'
import { parseWebhookUrl, resolveTarget, TargetRefused, type LookupHost } from './webhook-target.js'

/**
 * Commits wake the loop at most this often: under a stream of mail, mail-ingest commits every few milliseconds, and
 * each wake pays a read of the queue and of the messages (plus building the queries) however few deliveries it finds.
 * The first commit after a quiet spell is read at once, so a lone message is not delayed; under load a delivery
 * waits at most this long, and each read carries several deliveries.
 */
const COMMIT_WAKE_GAP_MS = 20
/** Retries back off to at most one an hour. */
const MAX_RETRY_DELAY_MS = 3_600_000
/** Even with nothing committed, look at the queue this often (a retry timer lost to a clock jump, say). */
const SAFETY_SCAN_MS = 30_000
/**
 * Finished attempts wait this long to be written together: each write takes the database's one write lock, which
 * mail-ingest needs for storing mail, so fewer, larger ones leave it more. Delivery itself is not delayed; only the log
 * and the retry schedule are, by about this.
 */
const RECORD_BATCH_MS = 250
/**
 * Attempts made but not yet recorded, at most: past this the loop starts no new attempt until a batch is written (a
 * store that stays locked must not let them pile up in memory).
 */
const MAX_UNRECORDED = 2_000

/**
 * Makes the queued webhook deliveries: one loop for the whole service (the process that also sweeps). It wakes when
 * another connection commits (the change feed's signal that mail may have arrived, and with it deliveries) and when
 * the next retry falls due; it keeps up to `concurrency` attempts in flight and records finished attempts in batches,
 * one statement each. A delivery stays `pending` in the database until its success is recorded, so a crash at any
 * point means it is made again after the restart, with the same delivery id: at least once.
 *
 * Ingest comes first: `db` is a connection of the deliverer's own that does not wait long for the write lock (a batch
 * that finds the store busy is written with the next one) and does not fsync its commits (see the webhooks plugin).
 */
export class WebhookDeliverer {
  /** Attempts under way. */
  private readonly inFlight = new Map<number, Promise<void>>()
  /** Deliveries attempted (or under way) whose outcome is not written yet: the queue is read past them. */
  private readonly unrecorded = new Set<number>()
  private readonly pools = new TargetPools()
  private results: AttemptResult[] = []
  private flushing: Promise<void> | null = null
  private scanning: Promise<void> | null = null
  private rescan = false
  /**
   * The highest id of a never-attempted delivery read so far: each commit reads only above it (a keyset over the
   * primary key), so the deliveries in flight are not read past again and again.
   */
  private newAfter: number | null = null
  /**
   * The next scan also reads the whole due queue (retries, and on PostgreSQL a delivery committed below `newAfter`),
   * leaving out the deliveries in flight. Set at start, by the retry and safety timers and after each batch of records.
   */
  private dueScan = true
  /**
   * PostgreSQL: a delivery can commit below `newAfter` (see listNewDeliveries), so with nothing in flight every wake
   * also reads the due queue, which then costs no more than the keyset read. On SQLite nothing commits out of order,
   * and a wake that finds no new delivery (mail to inboxes without webhooks) stays one cheap read.
   */
  private readonly lateCommits: boolean
  /** The last scan left due deliveries unread for want of a free slot. */
  private starved = false
  private retryTimer: NodeJS.Timeout | null = null
  /** A commit's wake held back until COMMIT_WAKE_GAP_MS after the last scan began. */
  private commitTimer: NodeJS.Timeout | null = null
  private lastScanAt = -Infinity
  private safetyTimer: NodeJS.Timeout | null = null
  private stopped = false

  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'publicUrl' | 'webhooks' | 'messageViewMaxAttachments'>,
    private readonly watcher: MailWatcher,
    private readonly view: (row: ListRow) => MessageSummary,
    private readonly metrics: ApiMetrics,
    private readonly log: FastifyBaseLogger,
    private readonly lookupHost: LookupHost,
  ) {
    this.lateCommits = lateCommits(db)
  }

  start(): void {
    this.watcher.onAnyCommit(() => this.commitSeen())
    this.safetyTimer = setInterval(() => this.wake(true), SAFETY_SCAN_MS)
    this.safetyTimer.unref()
    this.wake()
  }

  /** Stops taking new work; waits for attempts in flight (each bounded by the timeout) and records them. */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.retryTimer) clearTimeout(this.retryTimer)
    if (this.commitTimer) clearTimeout(this.commitTimer)
    if (this.safetyTimer) clearInterval(this.safetyTimer)
    await this.scanning
    await Promise.all(this.inFlight.values())
    await this.flush()
    await this.pools.destroy()
  }

  /** Another connection committed: new deliveries may be queued. Read at once, or once the gap since the last scan is over. */
  private commitSeen(): void {
    if (this.commitTimer) return
    const wait = this.lastScanAt + COMMIT_WAKE_GAP_MS - performance.now()
    if (wait <= 0) setImmediate(() => this.wake())
    else {
      this.commitTimer = setTimeout(() => {
        this.commitTimer = null
        this.wake()
      }, wait)
    }
  }

  private wake(due = false): void {
    if (due) this.dueScan = true
    if (this.stopped) return
    if (this.scanning) {
      this.rescan = true
      return
    }
    this.scanning = this.scan()
      .catch((err: unknown) => this.log.error({ err }, '[webhooks] reading the queue failed'))
      .finally(() => {
        this.scanning = null
      })
  }

  private async scan(): Promise<void> {
    let readDue = false
    do {
      this.rescan = false
      this.lastScanAt = performance.now()
      const free = Math.min(this.config.webhooks.concurrency - this.inFlight.size, MAX_UNRECORDED - this.unrecorded.size)
      if (free <= 0) {
        this.starved = true
        return
      }
      this.newAfter ??= await newDeliveriesStart(this.db)
      const fresh = await listNewDeliveries(this.db, this.newAfter, free)
      if (fresh.length > 0) this.newAfter = fresh[fresh.length - 1]!.id
      this.launch(fresh)
      let read = fresh.length
      if ((this.dueScan || (this.lateCommits && this.unrecorded.size === fresh.length)) && fresh.length < free) {
        this.dueScan = false
        readDue = true
        const due = await listDueDeliveries(this.db, Date.now(), free - fresh.length, [...this.unrecorded])
        this.launch(due)
        read += due.length
      }
      if (read === free) this.rescan = true
    } while (this.rescan && !this.stopped)
    // Only a read of the due queue can tell when the next retry falls due (a new delivery's commit wakes the loop anyway).
    if (readDue) await this.scheduleRetry()
  }

  private launch(deliveries: DueDelivery[]): void {
    for (const delivery of deliveries) {
      if (this.stopped || this.unrecorded.has(delivery.id)) continue
      this.unrecorded.add(delivery.id)
      this.inFlight.set(
        delivery.id,
        this.attempt(delivery).finally(() => {
          this.inFlight.delete(delivery.id)
          // The loop stopped for want of a free slot: once half are free, due deliveries need not wait for a commit (not
          // at every single one: each wake reads the queue).
          if (this.starved && this.inFlight.size <= this.config.webhooks.concurrency / 2) {
            this.starved = false
            this.wake()
          }
        }),
      )
    }
  }

  /** Sleeps until the next pending delivery falls due (the commit signal covers new ones). */
  private async scheduleRetry(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
    const at = await nextDueAt(this.db)
    if (at === null || this.stopped) return
    // Due already yet not read: it is one whose attempt is not recorded yet, and the flush that records it wakes the
    // loop. A timer of 0 here would read the queue again and again until then.
    if (at <= Date.now() && this.unrecorded.size > 0) return
    this.retryTimer = setTimeout(() => this.wake(true), Math.min(Math.max(at - Date.now(), 0), SAFETY_SCAN_MS))
    this.retryTimer.unref()
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const { webhooks } = this.config
    let result: SendResult
    let refused = false
    try {
      const url = parseWebhookUrl(delivery.url, webhooks)
      // Checked again at every attempt, and the connection goes to exactly the address checked.
      const target = await resolveTarget(url, webhooks, this.lookupHost)
      const body = JSON.stringify(this.payload(delivery))
      const timestamp = Math.floor(Date.now() / 1000)
      result = await postWebhook(
        url,
        await this.pools.get(url, target),
        body,
        {
          'User-Agent': 'Tempbox-Webhook/1',
          'Tempbox-Delivery': delivery.deliveryId,
          'Tempbox-Timestamp': String(timestamp),
          'Tempbox-Signature': signature(delivery.secret, timestamp, body),
        },
        webhooks.timeoutMs,
      )
    } catch (err) {
      refused = err instanceof TargetRefused
      result = { statusCode: null, error: err instanceof Error ? err.message : String(err) }
    }
    const now = Date.now()
    const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300
    const attempts = delivery.attempts + 1
    const nextAttemptAt = now + this.retryDelay(attempts)
    const gaveUp = !delivered && nextAttemptAt > delivery.createdAt + webhooks.retryWindowMs
    const error = delivered ? null : (result.error ?? `The receiver answered HTTP ${result.statusCode}.`)
    const outcome: WebhookOutcome = delivered ? 'delivered' : gaveUp ? 'gave_up' : refused ? 'refused_target' : 'failed_attempt'
    this.metrics.webhookDeliveries.inc({ outcome })
    this.results.push({
      id: delivery.id,
      state: delivered ? 'delivered' : gaveUp ? 'failed' : 'pending',
      attemptedAt: now,
      nextAttemptAt: delivered || gaveUp ? now : nextAttemptAt,
      statusCode: result.statusCode,
      error,
    })
    this.flushing ??= this.flush()
  }

  /** Doubling from the base, at most an hour, with up to 20 % added so that many failed deliveries do not retry in step. */
  private retryDelay(attempts: number): number {
    const delay = Math.min(this.config.webhooks.retryBaseMs * 2 ** Math.min(attempts - 1, 30), MAX_RETRY_DELAY_MS)
    return Math.round(delay * (1 + Math.random() * 0.2))
  }

  /**
   * Writes the finished attempts, those that finished meanwhile in the next batch; a delivery is read from the queue
   * again only once its attempt is written. A batch that cannot be written (the store busy with mail past the short
   * wait, say) goes with the next one; when stopping, what still cannot be written stays pending in the database and is
   * made again after the restart, as after a crash.
   */
  private async flush(): Promise<void> {
    while (this.results.length > 0) {
      await new Promise<void>((resolve) => setTimeout(resolve, this.stopped ? 0 : RECORD_BATCH_MS))
      const batch = this.results
      this.results = []
      try {
        await recordAttempts(this.db, batch)
      } catch (err) {
        if (!this.stopped) {
          this.results = batch.concat(this.results)
          this.log.warn({ err }, '[webhooks] recording attempts failed; trying again with the next batch')
          continue
        }
        this.log.error({ err }, '[webhooks] recording attempts failed')
      }
      for (const r of batch) this.unrecorded.delete(r.id)
    }
    this.flushing = null
    this.wake(true)
  }

  private payload(delivery: DueDelivery): WebhookPayload {
    const { address, message } = delivery
    const base = this.config.publicUrl
    const messagePath = `/api/email/${encodeURIComponent(address)}/messages/${message.id}`
    const listed = this.config.messageViewMaxAttachments
    return {
      type: 'message.received',
      deliveryId: delivery.deliveryId,
      address,
      message: this.view(message),
      links: {
        message: base + messagePath,
        raw: `${base}${messagePath}/raw`,
        // As many as a message view lists: a mail of thousands of attachments would otherwise be a payload of megabytes.
        attachments: Array.from({ length: Math.min(message.attachment_count, listed) }, (_, i) => base + attachmentUrl(address, message.id, i)),
        attachmentsTruncated: message.attachment_count > listed,
      },
    }
  }
}
