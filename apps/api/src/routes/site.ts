import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { SiteConfigResponse } from '@tempbox/types'

/** The deployment's public settings the web app shows (contact addresses), so one build serves any deployment. */
const siteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { support, privacy, legal } = app.config.siteEmails
  const body: SiteConfigResponse = { supportEmail: support, privacyEmail: privacy, legalEmail: legal }
  app.get(
    '/config',
    { schema: { tags: ['site'], summary: 'Public settings of this deployment: its contact addresses', response: { 200: SiteConfigResponse } } },
    // Configuration changes only with a restart; a short cache spares every page view a request.
    async (_request, reply) => reply.header('Cache-Control', 'public, max-age=300').send(body),
  )
}

export default siteRoutes
