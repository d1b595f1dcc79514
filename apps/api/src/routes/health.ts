import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { sql } from 'kysely'

const HealthResponse = Type.Object({ status: Type.Literal('ok'), uptimeSeconds: Type.Number() })

/** Liveness plus a trivial query so a broken database shows up as unhealthy. */
const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/health', { schema: { tags: ['health'], response: { 200: HealthResponse } } }, async () => {
    await sql`select 1`.execute(app.db)
    return { status: 'ok' as const, uptimeSeconds: Math.round(process.uptime()) }
  })
}

export default healthRoutes
