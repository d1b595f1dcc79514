import type { AddressInfo } from 'node:net'
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.js'
import { setQueueCaps } from '../repositories/webhook-repository.js'
import { WebhookDeliverer } from '../services/webhooks/webhook-deliverer.js'

/**
 * How long the delivery loop's connection waits for the write lock. Mail-ingest holds it while storing mail; a batch
 * of delivery records that does not get it by then is written with the next batch, rather than keep the api waiting.
 */
const DELIVERY_BUSY_TIMEOUT_MS = 200

/**
 * Without PUBLIC_URL the links name the listen address, whose port is known only once bound when PORT=0 (as the tests
 * start the api): then they name the port the server got, read at each delivery.
 */
function withBoundPublicUrl(app: FastifyInstance): Config {
  const { config } = app
  if (!config.publicUrl.endsWith(':0')) return config
  return Object.freeze({
    ...config,
    get publicUrl() {
      const address = app.server.address() as AddressInfo | null
      return address ? config.publicUrl.replace(/:0$/, `:${address.port}`) : config.publicUrl
    },
  })
}

/**
 * Webhooks per inbox. Queued deliveries are made by one loop for the whole service, in the process that also sweeps
 * (service-state/leadership.ts): several loops would only race each other for the same rows.
 */
export default fp(
  async (app) => {
    const { webhooks } = app.config
    // The enqueue trigger (run by mail-ingest's transactions) reads the caps from the database.
    await setQueueCaps(app.db, webhooks.maxQueued, webhooks.maxQueuedPerInbox)
    const lookupHost = (host: string) => app.webhookDns.lookup(host)
    let running: { deliverer: WebhookDeliverer; loopDb: { close(): Promise<void> } } | null = null
    app.sharedState.leadership.whileLeading({
      start: () => {
        // On SQLite a connection of the loop's own, which waits only briefly for the write lock and skips the fsync (a lost
        // commit only makes deliveries again, which at least once allows); on PostgreSQL the app's pool (backgroundDb).
        const loopDb = app.storage.backgroundDb({ busyTimeoutMs: DELIVERY_BUSY_TIMEOUT_MS })
        const deliverer = new WebhookDeliverer(loopDb.db, withBoundPublicUrl(app), app.mailWatcher, (row) => app.inboxListings.summaryOfListRow(row), app.metrics, app.log, lookupHost)
        running = { deliverer, loopDb }
        deliverer.start()
      },
      stop: async () => {
        if (!running) return
        const { deliverer, loopDb } = running
        running = null
        await deliverer.stop()
        await loopDb.close()
      },
    })
  },
  { name: 'webhooks', dependencies: ['services', 'metrics'] },
)
