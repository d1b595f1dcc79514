import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { clientKey } from '@tempbox/ip'
import type { FastifyInstance } from 'fastify'
import { blockedClients, INBOX_GUESSES } from './plugins/guess-limit.js'
import { securityHeaderSets } from './services/site/security-header-sets.js'
import { INBOX_CONTENT_CACHE } from './routes/email/content-cache.js'
import type { Listing } from './services/inboxes/inbox-listing.js'

/** The poll, as Fastify's router takes it: no query, one path segment of at most 100 characters (its param limit). */
const POLL_PATH = /^\/api\/email\/([A-Za-z0-9._+@%-]{1,100})$/
/** The listing route's pattern, whose request durations the answers here add to. */
const POLL_ROUTE = '/api/email/:address'

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void

/**
 * Answers a poll of a cached first page (`GET /api/email/{address}`, 304 or the prepared bytes) before Fastify sees
 * the request: Fastify's request path costs more than the answer. The answer is the one the route gives, byte for
 * byte (test/poll-fast-path.test.ts); the poll's hooks are done here: security headers, the guess-limit block (a
 * blocked client is left to Fastify, which refuses it), request metrics. Anything else, or any doubt, goes to Fastify
 * untouched. Not installed with LOG_REQUESTS=true, so every request gets its access lines.
 */
export function answerCachedPollsFirst(app: FastifyInstance): void {
  const server = app.server
  const listeners = server.listeners('request') as RequestListener[]
  // Fastify's own handler is the only listener; any other arrangement is not one this code knows.
  if (listeners.length !== 1) return
  const fastify = listeners[0]!
  const { config, inboxListings } = app
  const blocked = blockedClients(app.sharedState.missLimits, INBOX_GUESSES.scope)
  const durations = app.metrics.httpSeconds.route(POLL_ROUTE)
  const trustsProxy = config.trustProxy !== false
  // Node takes headers as one flat list in order; these are the route's, after the security set its onRequest gives.
  const fixed = [...Object.entries(securityHeaderSets([], config.hsts).api).flat(), 'cache-control', INBOX_CONTENT_CACHE, 'vary', 'Accept-Encoding']
  // A listing's headers with its tag, built at its first poll: Node reads the list without changing it.
  const taggedHeaders = new WeakMap<Listing, string[]>()
  let closing = false
  app.addHook('preClose', (done) => {
    // Fastify answers requests that arrive while it closes with 503: left to it.
    closing = true
    done()
  })

  function answered(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || closing) return false
    const match = POLL_PATH.exec(req.url ?? '')
    if (!match) return false
    const start = performance.now()
    const headers = req.headers
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false
    if (blocked.size !== 0) {
      // The client is who Fastify's trustProxy says; behind a trusted proxy that takes its parsing, so Fastify decides.
      if (trustsProxy && headers['x-forwarded-for'] !== undefined) return false
      const ip = req.socket.remoteAddress
      if (ip === undefined || blocked.has(clientKey(ip))) return false
    }
    let address = match[1]!
    if (address.includes('%')) {
      try {
        address = decodeURIComponent(address)
      } catch {
        return false
      }
      // Encoded twice: the router and the address parser would each decode once; rare enough to leave to them.
      if (address.includes('%')) return false
    }
    let listing
    try {
      listing = inboxListings.cachedFirstPage(address, undefined, undefined, undefined)
    } catch {
      return false
    }
    if (!listing) return false
    let tagged = taggedHeaders.get(listing)
    if (!tagged) taggedHeaders.set(listing, (tagged = [...fixed, 'etag', listing.etag]))
    if (listing.matches(headers['if-none-match'])) {
      res.writeHead(304, tagged)
      res.end()
    } else {
      const { body, encoding } = listing.encode(headers['accept-encoding'])
      const out = [...tagged, 'content-type', 'application/json; charset=utf-8']
      if (encoding) out.push('content-encoding', encoding)
      out.push('content-length', String(body.length))
      res.writeHead(200, out)
      res.end(body)
    }
    durations.observe('GET', res.statusCode, (performance.now() - start) / 1000)
    return true
  }

  server.removeListener('request', fastify)
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!answered(req, res)) fastify.call(server, req, res)
  })
}
