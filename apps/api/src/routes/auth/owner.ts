import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { isLoopbackClient } from '../../loopback-client.js'
import { ChangeRoleBody, ChangeRoleResponse, ErrorBody, PromoteOwnerBody, PromoteOwnerResponse, SetupStatusResponse } from '@tempbox/types'

/** Per IP, in memory only: guesses at the setup key. */
const PROMOTE_LIMIT = { max: 10, timeWindow: '15 minutes' }

/** Owner setup (open until the first owner, then closed for good) and the owners' role changes. */
const ownerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const setup = app.setupService
  const auth = app.authService

  app.get(
    '/auth/setup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Owner setup status: open until the first owner is made; the key only while open, and only where the server shows it',
        response: { 200: SetupStatusResponse },
      },
    },
    async (request, reply) =>
      reply.header('Cache-Control', 'no-store').send(await setup.status(isLoopbackClient(request, app.config.trustProxy))),
  )

  app.post(
    '/auth/promote-owner',
    {
      schema: {
        tags: ['auth'],
        summary: 'Make the signed-in account the first owner with the setup key; closed (403) for good once done',
        security: [{ bearer: [] }],
        body: PromoteOwnerBody,
        response: { 200: PromoteOwnerResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
      config: { rateLimit: PROMOTE_LIMIT },
      preHandler: app.authenticate,
    },
    async (request) => setup.promote(request.currentUser!, request.body),
  )

  app.post(
    '/auth/role',
    {
      schema: {
        tags: ['auth'],
        summary: 'Owners only: give an account the role user, admin or owner (the only owner cannot give theirs away)',
        security: [{ bearer: [] }],
        body: ChangeRoleBody,
        response: { 200: ChangeRoleResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
      preHandler: app.requireOwner,
    },
    async (request) => auth.changeRole(request.body),
  )
}

export default ownerRoutes
