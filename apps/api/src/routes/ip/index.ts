import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ErrorBody, IpInfo } from '@tempbox/types'
import { lookupIp } from '../../services/geoip/ip-service.js'

/**
 * `GET /api/ip` (the caller) and `GET /api/ip/{ip}` (any v4/v6 address) are one route, so the
 * 100 lookups per hour per client of spec §9 are counted once across both.
 */
const ipRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/ip/:ip?',
    {
      schema: {
        tags: ['ip'],
        summary: "Location and network of an IPv4/IPv6 address; without one, the caller's own",
        params: Type.Object({ ip: Type.Optional(Type.String({ maxLength: 64 })) }),
        response: { 200: IpInfo, 400: ErrorBody, 429: ErrorBody },
      },
      config: { rateLimit: { max: 100, timeWindow: '1 hour' } },
      // The URL holds the address looked up and the request the caller's own: neither may reach a log.
      logLevel: 'silent',
    },
    async (request, reply) => {
      // request.ip honours X-Forwarded-For only from proxies the operator trusts (TRUST_PROXY).
      const info = await lookupIp(app.geoip, request.params.ip || request.ip)
      return reply.header('Cache-Control', 'no-store').send(info)
    },
  )
}

export default ipRoutes
