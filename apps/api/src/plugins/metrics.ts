import fp from 'fastify-plugin'
import type { onResponseHookHandler } from 'fastify'
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
    // Each route finds its series once, here; its answers only add to them (no label work per request).
    app.addHook('onRoute', (route) => {
      const series = metrics.httpSeconds.route(route.url)
      const observe: onResponseHookHandler = (request, reply, done) => {
        series.observe(request.method, reply.statusCode, reply.elapsedTime / 1000)
        done()
      }
      route.onResponse = [...(Array.isArray(route.onResponse) ? route.onResponse : route.onResponse ? [route.onResponse] : []), observe]
    })
    const unmatched = metrics.httpSeconds.route('unmatched')
    app.addHook('onResponse', (request, reply, done) => {
      if (request.is404) unmatched.observe(request.method, reply.statusCode, reply.elapsedTime / 1000)
      done()
    })
  },
  { name: 'metrics', dependencies: ['db'] },
)
