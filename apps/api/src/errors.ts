import type { ErrorCode } from '@tempbox/types'

/** HTTP status for each error code; the error handler looks codes up here. */
export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_address: 400,
  invalid_url: 400,
  invalid_ip: 400,
  invalid_webhook_url: 400,
  webhook_target_refused: 400,
  address_reserved: 400,
  invalid_query: 400,
  unsupported_query: 400,
  domain_not_served: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_setup_key: 403,
  forbidden: 403,
  setup_closed: 403,
  wrong_password: 403,
  not_found: 404,
  inbox_not_found: 404,
  message_not_found: 404,
  attachment_not_found: 404,
  user_not_found: 404,
  contact_not_found: 404,
  link_not_found: 404,
  webhook_not_found: 404,
  address_taken: 409,
  address_retired: 409,
  email_taken: 409,
  last_owner: 409,
  rate_limited: 429,
  too_many_active_addresses: 429,
  internal: 500,
  unavailable: 503,
} as const satisfies Record<ErrorCode, number>

/** A failure the client should see: `message` is the sentence a person reads. */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly statusCode: number
  readonly fields?: Record<string, string>

  constructor(code: ErrorCode, message: string, fields?: Record<string, string>) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.statusCode = ERROR_STATUS[code]
    this.fields = fields
  }
}
