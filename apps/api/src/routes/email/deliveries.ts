import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { DEFAULT_DELIVERY_PAGE, DeliveriesQuery, DeliveriesResponse, ErrorBody } from '@tempbox/types'
import { AddressParams, addressErrors } from './schemas.js'
import { INBOX_CONTENT_CACHE } from './content-cache.js'

/** The delivery log: each SMTP transaction that named the address, so "why didn't my mail arrive?" has an answer. */
const deliveryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const inboxes = app.inboxService
  const log = app.deliveryLog

  app.get(
    '/email/:address/deliveries',
    {
      schema: {
        tags: ['email'],
        summary: 'The delivery log: the last SMTP transactions that named this address, accepted, refused or deferred, newest first',
        description:
          'Each entry says when, the SMTP reply code and enhanced status sent, why (a `reason` code and its `reasonText` ' +
          'sentence), the size, the +tag used and, when accepted, the stored message. The log keeps the newest ' +
          'DELIVERY_LOG_ENTRIES (100 by default) and goes with the address; no client IP is kept. Page with `limit` and ' +
          '`before` (the `nextBefore` of the previous page).',
        params: AddressParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveriesResponse, ...addressErrors, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const inbox = await inboxes.getInbox(request.params.address)
      const { limit, before } = request.query
      reply.header('Cache-Control', INBOX_CONTENT_CACHE)
      return log.page(inbox, limit ?? DEFAULT_DELIVERY_PAGE, before === undefined ? null : Number(before))
    },
  )
}

export default deliveryRoutes
