import { Type, type Static } from 'typebox'
import { MessageSummary } from './email.js'

export const WebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'Where each new message is POSTed: an `https` URL (`http` only where the operator allows it).',
    }),
  },
  { additionalProperties: false },
)
export type WebhookBody = Static<typeof WebhookBody>

export const Webhook = Type.Object({
  url: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  pendingDeliveries: Type.Integer({ minimum: 0, description: 'Deliveries waiting to be made or retried.' }),
})
export type Webhook = Static<typeof Webhook>

/** Answer to PUT: the only time the signing secret is shown. */
export const WebhookCreated = Type.Object({
  url: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  secret: Type.String({
    description:
      'HMAC-SHA256 key of the `Tempbox-Signature` header. Shown once: keep it. Setting the webhook again issues a new one.',
  }),
})
export type WebhookCreated = Static<typeof WebhookCreated>

export const WebhookDeliveryState = Type.Union([
  Type.Literal('pending'),
  Type.Literal('delivered'),
  Type.Literal('failed'),
  Type.Literal('dropped'),
])

export const WebhookDelivery = Type.Object({
  id: Type.String({ description: 'The delivery id, sent as `Tempbox-Delivery`: the same on every attempt.' }),
  messageId: Type.String(),
  state: WebhookDeliveryState,
  attempts: Type.Integer({ minimum: 0 }),
  createdAt: Type.String({ format: 'date-time' }),
  lastAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the last attempt; null without an answer.' }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Set while the state is `pending`.' }),
})
export type WebhookDelivery = Static<typeof WebhookDelivery>

export const WebhookDeliveriesResponse = Type.Object({
  deliveries: Type.Array(WebhookDelivery, { description: 'The most recent deliveries, newest first (at most 50).' }),
})
export type WebhookDeliveriesResponse = Static<typeof WebhookDeliveriesResponse>

/** The JSON body POSTed to a webhook for each new message. */
export const WebhookPayload = Type.Object({
  type: Type.Literal('message.received'),
  deliveryId: Type.String(),
  address: Type.String(),
  message: MessageSummary,
  links: Type.Object({
    message: Type.String({ description: 'The whole message (GET, JSON).' }),
    raw: Type.String({ description: 'Its exact source (.eml).' }),
    attachments: Type.Array(Type.String(), {
      description:
        'Download URLs of the first attachments, in order: at most the server\'s display limit ' +
        '(MESSAGE_VIEW_MAX_ATTACHMENTS, 100 by default). `message.attachmentCount` is how many the message has; every ' +
        'one downloads at `…/attachments/{index}`, indexes 0 to `message.attachmentCount` − 1.',
    }),
    attachmentsTruncated: Type.Boolean({ description: 'True when the message has more attachments than `attachments` links.' }),
  }),
})
export type WebhookPayload = Static<typeof WebhookPayload>
