import fp from 'fastify-plugin'
import { INGEST_SERVICE, lastHeartbeat } from '@tempbox/db'
import { createApiMetrics, type ApiMetrics } from '../metrics/api-metrics.js'
import { countActiveInboxes } from '../repositories/inbox-repository.js'
import { queueCounters } from '../repositories/webhook-repository.js'

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ApiMetrics
  }
}

/**
 * Counts every request by its route pattern (`/api/email/:address`), never by its URL, which may hold an address:
 * labels must not identify anyone. The registry is served on its own listener by server.ts, not by this app.
 */
export default fp(
  async (app) => {
    const metrics = createApiMetrics({
      activeAddresses: () => countActiveInboxes(app.db, Date.now()),
      webhookQueue: () => queueCounters(app.db),
      ingestHeartbeat: async () => (await lastHeartbeat(app.db, INGEST_SERVICE))?.beatAt ?? null,
    })
    app.decorate('metrics', metrics)
    app.addHook('onResponse', async (request, reply) => {
      metrics.httpSeconds.observe(
        { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: `${Math.floor(reply.statusCode / 100)}xx` },
        reply.elapsedTime / 1000,
      )
    })
  },
  { name: 'metrics', dependencies: ['db'] },
)
