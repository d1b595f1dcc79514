import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ContactBody, ContactCreatedResponse, ErrorBody } from '@tempbox/types'
import { submitContact } from '../../services/contact/contact-service.js'

const CONTACT_LIMIT = { max: 10, timeWindow: '1 hour' }

const contactRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/contact',
    {
      schema: {
        tags: ['contact'],
        summary: 'Send a message to the site team (name, email, subject, message)',
        body: ContactBody,
        response: { 201: ContactCreatedResponse, 400: ErrorBody, 429: ErrorBody },
      },
      config: { rateLimit: CONTACT_LIMIT },
    },
    async (request, reply) => {
      const id = await submitContact(app.db, request.body)
      return reply.status(201).send({ success: true, id })
    },
  )
}

export default contactRoutes
