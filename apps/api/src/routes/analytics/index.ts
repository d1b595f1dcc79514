import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  ContactsQuery,
  ContactsResponse,
  ContactStatusBody,
  ContactStatusParams,
  ContactStatusResponse,
  DashboardQuery,
  DashboardStats,
  ErrorBody,
  PageViewBody,
  RealtimeStats,
} from '@tempbox/types'
import { listContacts, setContactStatus } from '../../services/contact/contact-service.js'

/** A person navigating never comes near this; it only caps counter inflation from one client. */
const PAGEVIEW_LIMIT = { max: 120, timeWindow: '1 minute' }
const adminErrors = { 401: ErrorBody, 403: ErrorBody } as const

const analyticsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const analytics = app.analyticsService

  app.post(
    '/analytics/pageview',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Count a page view (the web app reports each route change); stores no IP',
        body: PageViewBody,
        response: { 204: { type: 'null' }, 400: ErrorBody, 429: ErrorBody },
      },
      config: { rateLimit: PAGEVIEW_LIMIT },
      logLevel: 'warn',
    },
    async (request, reply) => {
      await analytics.recordPageView({ path: request.body.path, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' })
      return reply.status(204).send(null)
    },
  )

  const adminRoutes: FastifyPluginAsyncTypebox = async (admin) => {
    // onRequest: refuse guests before their body is even parsed or validated.
    admin.addHook('onRequest', app.requireAdmin)

    admin.get(
      '/analytics/realtime',
      { schema: { tags: ['analytics'], summary: "Today's figures and visitors of the last hour", security: [{ bearer: [] }], response: { 200: RealtimeStats, ...adminErrors } } },
      async (_request, reply) => reply.header('Cache-Control', 'no-store').send(await analytics.realtime()),
    )

    admin.get(
      '/analytics/dashboard',
      {
        schema: {
          tags: ['analytics'],
          summary: 'Totals, top countries, top pages and visits per day over 7, 30 or 90 days',
          security: [{ bearer: [] }],
          querystring: DashboardQuery,
          response: { 200: DashboardStats, 400: ErrorBody, ...adminErrors },
        },
      },
      async (request, reply) => reply.header('Cache-Control', 'no-store').send(await analytics.dashboard(Number(request.query.days ?? '30'))),
    )

    admin.get(
      '/analytics/contacts',
      {
        schema: {
          tags: ['analytics'],
          summary: 'Contact messages, newest first',
          security: [{ bearer: [] }],
          querystring: ContactsQuery,
          response: { 200: ContactsResponse, 400: ErrorBody, ...adminErrors },
        },
      },
      async (request, reply) =>
        reply.header('Cache-Control', 'no-store').send(await listContacts(app.db, request.query.page ?? 1, request.query.limit ?? 10)),
    )

    admin.patch(
      '/analytics/contacts/:id/status',
      {
        schema: {
          tags: ['analytics'],
          summary: 'Mark a contact message read or replied',
          security: [{ bearer: [] }],
          params: ContactStatusParams,
          body: ContactStatusBody,
          response: { 200: ContactStatusResponse, 400: ErrorBody, 404: ErrorBody, ...adminErrors },
        },
      },
      async (request) => ({ success: true, contact: await setContactStatus(app.db, request.params.id, request.body.status) }),
    )
  }
  await app.register(adminRoutes)
}

export default analyticsRoutes
