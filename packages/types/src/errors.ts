import { Type, type Static } from 'typebox'

/**
 * Every machine-readable error code the API answers with. `error` is always the sentence a person reads.
 * Add codes here, then their HTTP status in apps/api/src/errors.ts.
 */
export const ERROR_CODES = [
  'validation_failed',
  'invalid_address',
  'inbox_not_found',
  'message_not_found',
  'attachment_not_found',
  'address_taken',
  'address_retired',
  'address_reserved',
  'domain_not_served',
  'rate_limited',
  'too_many_active_addresses',
  'unauthorized',
  'forbidden',
  'not_found',
  'email_taken',
  'invalid_credentials',
  'setup_closed',
  'invalid_setup_key',
  'wrong_password',
  'last_owner',
  'user_not_found',
  'contact_not_found',
  'link_not_found',
  'invalid_url',
  'invalid_ip',
  'invalid_webhook_url',
  'webhook_target_refused',
  'webhook_not_found',
  'invalid_query',
  'unsupported_query',
  'internal',
  'unavailable',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'The sentence a person reads.' }),
    code: Type.String({ description: 'Machine-readable snake_case code.' }),
    fields: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Per-field messages for validation errors.' })),
  },
  { $id: 'ErrorBody' },
)
export type ErrorBody = Static<typeof ErrorBody>
