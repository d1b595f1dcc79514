import { Type, type Static } from 'typebox'
import { DEFAULT_DELIVERY_PAGE, MAX_DELIVERY_PAGE } from './constants.js'

/** Most near misses a timed-out wait lists of each kind (messages, refused or deferred deliveries). */
export const MAX_NEAR_MISSES = 20

export const DeliveryResult = Type.Union([Type.Literal('accepted'), Type.Literal('refused'), Type.Literal('deferred')], {
  description: '`accepted` (stored), `refused` (a 5xx: the sender gives up) or `deferred` (a 4xx: the sender should try again).',
})
export type DeliveryResult = Static<typeof DeliveryResult>

/**
 * Why a delivery ended as it did. The list can grow: a client should show `reasonText` for a code it does not know.
 */
export const DELIVERY_REASONS = [
  'accepted',
  'mailbox_full',
  'too_big',
  'storage_full',
  'fault_greylist',
  'fault_tempfail',
  'fault_reject',
  'fault_disconnect',
  'fault_full',
  'fault_slow',
  'sender_domain_unknown',
  'too_many_recipients',
  'guess_limited',
  'store_failed',
  'busy',
] as const
export type DeliveryReason = (typeof DELIVERY_REASONS)[number]

/** One SMTP transaction that named the address, accepted or not. No client IP is kept. */
export const DeliveryEntry = Type.Object({
  id: Type.String({ description: 'Entry id; larger ids are later. Pass as `before` to page.' }),
  at: Type.String({ format: 'date-time', description: 'When the server answered.' }),
  result: DeliveryResult,
  replyCode: Type.Integer({ description: 'The SMTP reply code sent (e.g. 250, 451, 550).' }),
  enhancedStatus: Type.String({ description: 'The RFC 3463 enhanced status sent (e.g. `2.0.0`, `4.7.1`).' }),
  reason: Type.String({ description: `Why, as a snake_case code: ${DELIVERY_REASONS.map((r) => `\`${r}\``).join(', ')} (the list can grow).` }),
  reasonText: Type.String({ description: 'The reason as an English sentence.' }),
  size: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'Bytes of the message, when known.' }),
  tag: Type.Union([Type.String(), Type.Null()], { description: 'The +tag of the address used (without `+`), or null.' }),
  messageId: Type.Union([Type.String(), Type.Null()], { description: 'The stored message (`…/messages/{id}`) when accepted and still there.' }),
})
export type DeliveryEntry = Static<typeof DeliveryEntry>

export const DeliveriesQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_DELIVERY_PAGE, default: DEFAULT_DELIVERY_PAGE, description: `Entries per page (1–${MAX_DELIVERY_PAGE}).` }),
  ),
  before: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'Cursor: only entries older than this entry id (the previous page\'s `nextBefore`).' })),
})
export type DeliveriesQuery = Static<typeof DeliveriesQuery>

export const DeliveriesResponse = Type.Object({
  deliveries: Type.Array(DeliveryEntry, { description: 'Newest first.' }),
  nextBefore: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `before` for the next (older) page; null on the last page.' }),
})
export type DeliveriesResponse = Static<typeof DeliveriesResponse>

/** A wait filter, by its query parameter's name. */
export const WaitFilterName = Type.Union([Type.Literal('from'), Type.Literal('subject'), Type.Literal('contains')])
export type WaitFilterName = Static<typeof WaitFilterName>

export const NearMissMessage = Type.Object({
  messageId: Type.String(),
  subject: Type.String(),
  from: Type.String({ description: 'The sender: "Name <address>" or the address alone.' }),
  receivedAt: Type.String({ format: 'date-time' }),
  failed: Type.Array(WaitFilterName, { description: 'The filters this message did not match.' }),
})
export type NearMissMessage = Static<typeof NearMissMessage>

/** On a wait's timeout only: what arrived meanwhile but did not count, so the reason the mail did not come shows. */
export const NearMisses = Type.Object({
  messages: Type.Array(NearMissMessage, { description: `Messages that arrived during the wait but missed a filter (oldest first, at most ${MAX_NEAR_MISSES}).` }),
  deliveries: Type.Array(DeliveryEntry, { description: `Deliveries refused or deferred during the wait (newest first, at most ${MAX_NEAR_MISSES}).` }),
  more: Type.Boolean({ description: 'True when there were more of either than listed.' }),
})
export type NearMisses = Static<typeof NearMisses>
