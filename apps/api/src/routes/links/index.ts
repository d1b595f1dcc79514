import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { CreateLinkBody, ErrorBody, ListLinksQuery, ListLinksResponse, ShortLink } from '@tempbox/types'
import { createLink, listLinks, type ShortHost } from '../../services/link-service.js'

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
        summary: 'Shorten a URL',
        body: CreateLinkBody,
        response: { 201: ShortLink, 400: ErrorBody, 429: ErrorBody },
      },
      // Per IP, memory only: enough for a person, too little for a spammer.
      config: { rateLimit: { max: 30, timeWindow: '10 minutes' } },
    },
    async (request, reply) => {
      const link = await createLink(app.db, request.body.url, shortHostOf(request))
      return reply.status(201).send(link)
    },
  )

  app.get(
    '/links',
    {
      schema: {
        tags: ['links'],
        summary: 'Live click counts of the given short codes',
        querystring: ListLinksQuery,
        response: { 200: ListLinksResponse, 400: ErrorBody },
      },
    },
    async (request) => ({ links: await listLinks(app.db, request.query.codes, shortHostOf(request)) }),
  )
}

export default linkRoutes
