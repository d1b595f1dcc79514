import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ErrorBody } from '@tempbox/types'
import { followLink } from '../../services/short-links/short-link-service.js'
import { limitGuesses } from '../../plugins/guess-limit.js'

/**
 * `GET /s/{code}`: 302 to the target, counting the click. Lives outside /api so short links stay short.
 * An unknown code is a page a person sees, so it answers the web app's 404 page when the web build is served.
 */
const shortRedirectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const webDist = app.config.webDistDir
  const notFoundPage = webDist ? readFileSync(join(webDist, 'index.html'), 'utf8') : null
  limitGuesses(app, {
    scope: 'link',
    message: 'Too many short links that do not exist were asked for from your network. Please try again in {seconds} seconds.',
    appliesTo: () => true,
    isMiss: (_request, reply) => reply.statusCode === 404,
  })

  app.get(
    '/s/:code',
    {
      schema: {
        tags: ['links'],
        summary: 'Follow a short link',
        params: Type.Object({ code: Type.String({ maxLength: 64 }) }),
        response: { 302: Type.Null(), 404: Type.Union([ErrorBody, Type.String()]) },
      },
    },
    async (request, reply) => {
      const target = await followLink(app.db, request.params.code)
      if (target) {
        // Never cached, so every visit reaches us and is counted.
        return reply.header('Cache-Control', 'no-store').redirect(target, 302)
      }
      if (notFoundPage) {
        return reply.status(404).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(notFoundPage)
      }
      return reply.status(404).send({ error: 'This short link does not exist.', code: 'link_not_found' })
    },
  )
}

export default shortRedirectRoutes
