import fp from 'fastify-plugin'
import { setQueueCaps } from '../repositories/webhook-repository.js'
import { WebhookDeliverer } from '../services/webhooks/webhook-deliverer.js'

/**
 * Webhooks per inbox. Queued deliveries are made by one loop for the whole service, in the process that also sweeps
 * (with API_PROCESSES > 1, one worker): several loops would only race each other for the same rows.
 */
export default fp(
  async (app) => {
    const { webhooks } = app.config
    // The enqueue trigger (run by mail-ingest's transactions) reads the caps from the database.
    await setQueueCaps(app.db, webhooks.maxQueued, webhooks.maxQueuedPerInbox)
    if (!app.globalState.runsSweeper) return
    const lookupHost = (host: string) => app.webhookDns.lookup(host)
    const deliverer = new WebhookDeliverer(app.db, app.config, app.mailWatcher, (row) => app.inboxService.summary(row), app.metrics, app.log, lookupHost)
    app.addHook('onReady', async () => deliverer.start())
    app.addHook('preClose', async () => deliverer.stop())
  },
  { name: 'webhooks', dependencies: ['services', 'metrics'] },
)
