import { Counter, Gauge, Registry } from 'prom-client'
import { collectProcessMetrics } from '@tempbox/metrics'
import { RequestDurations } from './request-durations.js'

/**
 * Outcome of one webhook delivery attempt. Deliveries never queued (a cap reached) are not attempts: the enqueue
 * trigger runs in mail-ingest's transaction, so they are counted in the database (tempbox_webhook_dropped_deliveries_total).
 */
export type WebhookOutcome = 'delivered' | 'failed_attempt' | 'gave_up' | 'refused_target'

/** What one API process counts for operators; with API_PROCESSES > 1 the primary adds up its workers' (cluster/). */
export interface ApiMetrics {
  registry: Registry
  /** Request durations by method, route pattern and status class. */
  httpSeconds: RequestDurations
  sseClients: Gauge
  webhookDeliveries: Counter<'outcome'>
}

/**
 * Database-wide numbers every worker would report alike: read at scrape time, and taken from one worker (not summed)
 * when the cluster's primary aggregates.
 */
export interface DatabaseGauges {
  activeAddresses: () => Promise<number>
  webhookQueue: () => Promise<{ pending: number; dropped: number }>
  /** Epoch ms of mail-ingest's last heartbeat, or null if it never wrote one. */
  ingestHeartbeat: () => Promise<number | null>
}

export function createApiMetrics(gauges: DatabaseGauges): ApiMetrics {
  const registry = new Registry()
  collectProcessMetrics(registry, 'tempbox_api_')
  new Gauge({
    name: 'tempbox_active_addresses',
    help: 'Addresses that have not expired',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.set(await gauges.activeAddresses())
    },
  })
  new Gauge({
    name: 'tempbox_webhook_queue_deliveries',
    help: 'Webhook deliveries waiting to be made or retried',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.set((await gauges.webhookQueue()).pending)
    },
  })
  new Gauge({
    name: 'tempbox_ingest_heartbeat_age_seconds',
    help: 'Seconds since mail-ingest last reported in (+Inf: never)',
    registers: [registry],
    aggregator: 'min',
    async collect() {
      const at = await gauges.ingestHeartbeat()
      this.set(at === null ? Infinity : Math.max(0, Date.now() - at) / 1000)
    },
  })
  new Counter({
    name: 'tempbox_webhook_dropped_deliveries_total',
    help: 'Webhook deliveries not queued because a queue cap was reached',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.reset()
      this.inc((await gauges.webhookQueue()).dropped)
    },
  })
  const httpSeconds = new RequestDurations()
  registry.registerMetric(httpSeconds.asMetric())
  return {
    registry,
    httpSeconds,
    sseClients: new Gauge({ name: 'tempbox_sse_clients', help: 'Open Server-Sent Events streams', registers: [registry] }),
    webhookDeliveries: new Counter({
      name: 'tempbox_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  }
}
