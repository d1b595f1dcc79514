import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../errors.js'

/**
 * Searches per client (IPv4 address or IPv6 /64: the rate-limit plugin's keyGenerator) per minute,
 * SEARCH_RATE_LIMIT_PER_MINUTE: each scans a whole inbox, where a poll reads one cached page. Counted in the plugin's
 * store, so every api process and node shares the count; past it, 429 with Retry-After.
 */
export function searchLimiter(app: FastifyInstance): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const max = app.config.search.perMinute
  const limit = app.createRateLimit({ max, timeWindow: 60_000 })
  return async (request, reply) => {
    const outcome = await limit(request)
    if (outcome.isAllowed || !outcome.isExceeded) return
    const seconds = Math.max(1, outcome.ttlInSeconds)
    reply.header('Retry-After', String(seconds))
    throw new AppError('rate_limited', `Too many searches from your network (at most ${max} a minute). Please try again in ${seconds} seconds.`)
  }
}
