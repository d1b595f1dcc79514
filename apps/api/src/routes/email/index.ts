import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { DomainsResponse, ErrorBody, GenerateEmailBody, GenerateEmailResponse, InboxQuery, InboxResponse, SuccessResponse } from '@tempbox/types'
import { AddressParams, addressErrors } from './schemas.js'
import { INBOX_CONTENT_CACHE } from './content-cache.js'
import messageRoutes from './messages.js'
import liveRoutes from './live.js'
import codeRoutes from './code.js'
import frameRoutes from './frame.js'
import { INBOX_GUESSES, limitGuesses } from '../../plugins/guess-limit.js'
import webhookRoutes from './webhook.js'
import lifetimeRoutes from './lifetime.js'
import deliveryRoutes from './deliveries.js'
import { parseSearch } from '../../services/messages/search-query.js'
import { searchLimiter } from './search-limit.js'
import type { Listing } from '../../services/inboxes/inbox-listing.js'

/** The temporary-email API. Thin: rules live in services/inboxes. */
const emailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const inboxes = app.inboxService
  const limitSearch = searchLimiter(app)
  limitGuesses(app, {
    ...INBOX_GUESSES,
    // A chosen name answers 409 when it is live: a guess, unlike a random one.
    appliesTo: (request) =>
      request.routeOptions.url?.includes(':address') === true ||
      (request.routeOptions.url?.endsWith('/email/generate') === true && (request.body as { localPart?: unknown } | undefined)?.localPart !== undefined),
  })

  app.post(
    '/email/generate',
    {
      schema: {
        tags: ['email'],
        summary: 'Create a temporary address (random, or a name you choose); it expires after 24 hours, or burns sooner if asked',
        body: GenerateEmailBody,
        response: { 200: GenerateEmailResponse, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody },
      },
      // Signed in, the address is saved to the account.
      config: { optionalSignIn: true },
      // The body is optional: no body means a random name on the default domain.
      preValidation: async (request) => {
        request.body ??= {}
      },
    },
    async (request) => {
      const body = request.body
      // Signed in (valid Bearer token): the address is saved to the account.
      return inboxes.createInbox({ ip: request.ip, ...body, userId: request.userId })
    },
  )

  app.get(
    '/email/domains',
    { schema: { tags: ['email'], summary: 'Domains we receive mail for', response: { 200: DomainsResponse } } },
    async () => ({ domains: [...inboxes.domains()] }),
  )

  app.get(
    '/email/:address',
    {
      schema: {
        tags: ['email'],
        summary: 'One page of message summaries (no bodies), newest first, with the total count; `q` searches',
        description:
          'Summaries only: the whole message is at `…/messages/{id}`. `q` narrows the listing to matching messages (see ' +
          'the parameter; `total` then counts matches). Page with `limit` and `before` (the `nextBefore` of ' +
          'the previous page). Answers carry an `ETag`; send it back as `If-None-Match` and an unchanged page answers ' +
          '`304 Not Modified` with no body. Inbox content is never kept in a cache: `Cache-Control: private, no-store`.',
        params: AddressParams,
        querystring: InboxQuery,
        response: { 200: InboxResponse, 304: Type.Null({ description: 'Not modified since the ETag sent.' }), ...addressErrors, 429: ErrorBody },
      },
      // No route log level: access lines are off unless LOG_REQUESTS=true (access-log.ts), and then polls get theirs.
    },
    (request, reply) => {
      const { limit, before, q } = request.query
      // A poll of a cached page is answered in this turn: no await between finding the page and comparing its tag.
      const cached = app.inboxListings.cachedFirstPage(request.params.address, limit, before, q)
      if (cached) return void sendListing(request, reply, cached)
      return (async () => {
        if (q !== undefined) await limitSearch(request, reply)
        const inbox = await inboxes.getInbox(request.params.address)
        const conditions = q === undefined ? [] : parseSearch(q)
        sendListing(request, reply, await app.inboxListings.page(inbox, limit, before === undefined ? null : Number(before), conditions))
        return reply
      })()
    },
  )

  function sendListing(request: FastifyRequest, reply: FastifyReply, listing: Listing): void {
    // A burned address must leave no subjects in the browser's cache; pollers that keep the ETag still get 304s.
    reply.header('Cache-Control', INBOX_CONTENT_CACHE).header('Vary', 'Accept-Encoding').header('ETag', listing.etag)
    // No body, so no Content-Length or type either: some clients would wait for the bytes they announce.
    if (listing.matches(request.headers['if-none-match'])) return void reply.status(304).send()
    const { body, encoding } = listing.encode(request.headers['accept-encoding'])
    reply.type('application/json; charset=utf-8')
    if (encoding) reply.header('Content-Encoding', encoding)
    // Prepared bytes: the cached listing is sent as is, never serialized again.
    reply.send(body)
  }

  app.delete(
    '/email/:address',
    {
      schema: {
        tags: ['email'],
        summary: 'Release an address before it expires: it and its mail are deleted, and it no longer counts as one of your active addresses',
        params: AddressParams,
        response: { 200: SuccessResponse, ...addressErrors },
      },
    },
    async (request) => {
      await inboxes.releaseInbox(request.params.address)
      return { success: true, message: 'The address and its mail have been deleted.' }
    },
  )

  await app.register(messageRoutes)
  await app.register(frameRoutes)
  await app.register(liveRoutes)
  await app.register(codeRoutes)
  await app.register(webhookRoutes)
  await app.register(lifetimeRoutes)
  await app.register(deliveryRoutes)
}

export default emailRoutes
