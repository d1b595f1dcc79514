import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ErrorBody, Webhook, WebhookBody, WebhookCreated, WebhookDeliveriesResponse } from '@tempbox/types'
import { AddressParams, addressErrors } from './schemas.js'


const SIGNING =
  'Each new message is POSTed as JSON (`type`, `deliveryId`, `address`, `message`, `links`) with the headers ' +
  '`Tempbox-Delivery` (the same on every retry: drop duplicates by it), `Tempbox-Timestamp` (Unix seconds) and ' +
  '`Tempbox-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret>`. Any 2xx answer counts as ' +
  'delivered; anything else, a redirect or no answer within the timeout is retried with exponential backoff for up to 24 hours.'

/** A webhook per inbox; the address is the bearer secret, as for reading its mail. */
const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const inboxes = app.inboxService
  const webhooks = app.webhookService
  /** Setting a webhook resolves its host name: a few a minute is plenty for a person or a test suite. */
  const setLimit = { max: app.config.webhooks.setPerMinute, timeWindow: '1 minute' }

  app.put(
    '/email/:address/webhook',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Set the webhook: each new message of this address is POSTed to the URL, signed',
        description: `${SIGNING} Answers 201 when set, 200 when it replaced one; the secret is in this answer only.`,
        params: AddressParams,
        body: WebhookBody,
        response: { 200: WebhookCreated, 201: WebhookCreated, ...addressErrors, 429: ErrorBody },
      },
      config: { rateLimit: setLimit },
    },
    async (request, reply) => {
      const inbox = await inboxes.getInbox(request.params.address)
      const { created, webhook } = await webhooks.set(inbox, request.body.url)
      return reply.status(created ? 201 : 200).header('Cache-Control', 'no-store').send(webhook)
    },
  )

  app.get(
    '/email/:address/webhook',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'The webhook of this address (without its secret)',
        params: AddressParams,
        response: { 200: Webhook, ...addressErrors },
      },
    },
    async (request) => webhooks.get(await inboxes.getInbox(request.params.address)),
  )

  app.delete(
    '/email/:address/webhook',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Remove the webhook, its queued deliveries and their log',
        params: AddressParams,
        response: { 204: Type.Null({ description: 'Removed.' }), ...addressErrors },
      },
    },
    async (request, reply) => {
      await webhooks.remove(await inboxes.getInbox(request.params.address))
      return reply.status(204).send(null)
    },
  )

  app.get(
    '/email/:address/webhook/deliveries',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'The latest deliveries, newest first: state, attempts, last status code or error, next attempt',
        params: AddressParams,
        response: { 200: WebhookDeliveriesResponse, ...addressErrors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store')
      return webhooks.deliveries(await inboxes.getInbox(request.params.address))
    },
  )
}

export default webhookRoutes
