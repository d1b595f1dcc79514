import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { CreatedShortLink, CreateLinkBody, ErrorBody, ListLinksResponse, LookupLinksBody } from '@tempbox/types'
import { createLink, lookupLinks, type ShortHost } from '../../services/short-links/short-link-service.js'

/** Short links are served by this same host (behind a trusted proxy, the host and scheme it forwards). */
export function shortHostOf(request: FastifyRequest): ShortHost {
  return { origin: `${request.protocol}://${request.host}`, host: request.host }
}

const linkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/links',
    {
      schema: {
        tags: ['links'],
        summary: 'Shorten a URL (the answer carries the secret that alone shows its clicks later)',
        body: CreateLinkBody,
        response: { 201: CreatedShortLink, 400: ErrorBody, 429: ErrorBody },
      },
      // Per IP, memory only: enough for a person, too little for a spammer.
      config: { rateLimit: { max: 30, timeWindow: '10 minutes' } },
    },
    async (request, reply) => {
      const link = await createLink(app.db, request.body.url, shortHostOf(request))
      return reply.status(201).send(link)
    },
  )

  app.post(
    '/links/lookup',
    {
      schema: {
        tags: ['links'],
        summary: 'Live click counts of your own links (each code with the secret it was created with)',
        body: LookupLinksBody,
        response: { 200: ListLinksResponse, 400: ErrorBody, 429: ErrorBody },
      },
      // A browser asks on load and on focus; a guesser with stolen codes still needs their secrets.
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (request) => ({ links: await lookupLinks(app.db, request.body.links, shortHostOf(request)) }),
  )
}

export default linkRoutes
