import type { ContactBody, ContactCreatedResponse } from '@tempbox/types'
import { apiJson } from '../../../lib/api-client'

/** POST /api/contact; throws ApiError on any non-OK answer. */
export function sendContactMessage(body: ContactBody): Promise<ContactCreatedResponse> {
  return apiJson<ContactCreatedResponse>('POST', '/api/contact', body)
}
