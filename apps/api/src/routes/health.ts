import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { INGEST_SERVICE, lastHeartbeat } from '@tempbox/db'
import { LivenessResponse, ReadinessResponse, type HealthCheck } from '@tempbox/types'

/**
 * Liveness (the process answers) and readiness (it can do its job): the database answers, mail-ingest has written its
 * heartbeat lately, and the change feed that brings new mail to open inboxes keeps up. Load balancers route on the
 * second; a supervisor restarts on the first.
 */
const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health/live',
    { schema: { tags: ['health'], summary: 'Liveness: the process is up and answering', response: { 200: LivenessResponse } } },
    async () => ({ status: 'ok' as const, uptimeSeconds: Math.round(process.uptime()) }),
  )

  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: database, mail ingest and change feed all working (503 when any is not)',
        response: { 200: ReadinessResponse, 503: ReadinessResponse },
      },
    },
    async (_request, reply) => {
      const now = Date.now()
      const database = await checkDatabase()
      const ingest = database.ok ? await checkIngest(now) : { ok: false, detail: 'Unknown: the database does not answer.' }
      const changeFeed = checkChangeFeed(now)
      const ready = database.ok && ingest.ok && changeFeed.ok
      return reply.code(ready ? 200 : 503).header('Cache-Control', 'no-store').send({
        status: ready ? 'ok' : 'unavailable',
        uptimeSeconds: Math.round(process.uptime()),
        checks: { database, ingest, changeFeed },
      })
    },
  )

  async function checkDatabase(): Promise<HealthCheck> {
    try {
      await app.storage.ping()
      return { ok: true, detail: 'Answers queries.' }
    } catch (err) {
      return { ok: false, detail: `Query failed: ${err instanceof Error ? err.message : String(err)}` }
    }
  }

  // The change feed checks every 25 ms; HEALTH_CHANGE_FEED_STALE_MS (5 s) without a completed check, or without a
  // listening connection on PostgreSQL, mean it is stuck or failing (not just a busy moment or a reconnect).
  function checkChangeFeed(now: number): HealthCheck {
    const staleMs = app.config.changeFeedStaleMs
    const sinceCheck = now - app.mailWatcher.lastCheckedAt
    if (sinceCheck > staleMs) return { ok: false, detail: `No completed check for new mail in ${seconds(sinceCheck)}.` }
    // Checks still complete while PostgreSQL's listening connection is down, but they hear nothing: open inboxes on
    // this node would stay still. A reconnect takes 100 ms to a few seconds; longer means the balancer should move on.
    const deafSince = app.mailWatcher.deafSince()
    if (deafSince !== null && now - deafSince > staleMs) {
      return { ok: false, detail: `Not hearing new mail for ${seconds(now - deafSince)}: the connection that listens to the database is down, reconnecting.` }
    }
    return { ok: true, detail: `Checked for new mail ${sinceCheck} ms ago.` }
  }

  async function checkIngest(now: number): Promise<HealthCheck> {
    const beat = await lastHeartbeat(app.db, INGEST_SERVICE)
    if (beat === null) return { ok: false, detail: 'mail-ingest has never reported in: is it running on this database?' }
    const age = Math.max(0, now - beat.beatAt)
    return now <= beat.staleAt
      ? { ok: true, detail: `mail-ingest reported in ${seconds(age)} ago.` }
      : { ok: false, detail: `mail-ingest has not reported in for ${seconds(age)}.` }
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

export default healthRoutes
