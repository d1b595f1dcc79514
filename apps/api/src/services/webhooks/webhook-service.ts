import { randomBytes } from 'node:crypto'
import type { Db, InboxRow, WebhookDeliveryRow } from '@tempbox/db'
import type { Webhook, WebhookCreated, WebhookDeliveriesResponse } from '@tempbox/types'
import type { WebhookConfig } from '../../config.js'
import { AppError } from '../../errors.js'
import { deleteWebhook, findWebhook, listRecentDeliveries, upsertWebhook } from '../../repositories/webhook-repository.js'
import { parseWebhookUrl, resolveTarget, systemLookup, TargetRefused, type LookupHost } from './webhook-target.js'

/** The delivery log shows this many of the latest deliveries. */
const DELIVERY_LOG_SIZE = 50

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** Setting, reading and removing an inbox's webhook; the address is the bearer secret, as for reading its mail. */
export class WebhookService {
  constructor(
    private readonly db: Db,
    private readonly config: WebhookConfig,
    private readonly lookupHost: LookupHost = systemLookup,
  ) {}

  /** Checks the URL and where it resolves now (delivery checks again each time), then stores it with a new secret. */
  async set(inbox: InboxRow, rawUrl: string): Promise<{ created: boolean; webhook: WebhookCreated }> {
    let url: URL
    try {
      url = parseWebhookUrl(rawUrl, this.config)
      await resolveTarget(url, this.config, this.lookupHost)
    } catch (err) {
      if (err instanceof TargetRefused) throw new AppError(err.code, err.message, { url: err.message })
      throw err
    }
    const existed = (await findWebhook(this.db, inbox.id)) !== undefined
    const secret = `whsec_${randomBytes(32).toString('base64url')}`
    const row = await upsertWebhook(this.db, { inboxId: inbox.id, url: url.href, secret, createdAt: Date.now() })
    return { created: !existed, webhook: { url: row.url, createdAt: new Date(row.created_at).toISOString(), secret } }
  }

  async get(inbox: InboxRow): Promise<Webhook> {
    const row = await this.require(inbox)
    return { url: row.url, createdAt: new Date(row.created_at).toISOString(), pendingDeliveries: row.pending }
  }

  async remove(inbox: InboxRow): Promise<void> {
    if (!(await deleteWebhook(this.db, inbox.id))) throw notFound()
  }

  async deliveries(inbox: InboxRow): Promise<WebhookDeliveriesResponse> {
    const row = await this.require(inbox)
    const rows = await listRecentDeliveries(this.db, row.id, DELIVERY_LOG_SIZE)
    return { deliveries: rows.map(toDelivery) }
  }

  private async require(inbox: InboxRow) {
    const row = await findWebhook(this.db, inbox.id)
    if (!row) throw notFound()
    return row
  }
}

function notFound(): AppError {
  return new AppError('webhook_not_found', 'This address has no webhook. Set one with PUT …/webhook {"url": "https://…"}.')
}

function toDelivery(row: WebhookDeliveryRow): WebhookDeliveriesResponse['deliveries'][number] {
  return {
    id: row.delivery_id,
    messageId: String(row.message_id),
    state: row.state,
    attempts: row.attempts,
    createdAt: new Date(row.created_at).toISOString(),
    lastAttemptAt: iso(row.last_attempt_at),
    lastStatusCode: row.last_status_code,
    lastError: row.state === 'dropped' ? 'Not queued: too many deliveries were already waiting.' : row.last_error,
    nextAttemptAt: row.state === 'pending' ? iso(row.next_attempt_at) : null,
  }
}
