import type { DeliveriesResponse } from '@tempbox/types'
import { MAX_DELIVERY_PAGE } from '@tempbox/types/constants'
import { apiJson } from '../../../lib/api-client'
import { inboxUrl } from './inbox'

/**
 * The URL of page `index` of the delivery log, or null after the last one. Pages are the API's largest: the whole log
 * at its default DELIVERY_LOG_ENTRIES (100) is one.
 */
export function deliveriesPageKey(email: string, index: number, previous: DeliveriesResponse | null): string | null {
  const url = `${inboxUrl(email)}/deliveries?limit=${MAX_DELIVERY_PAGE}`
  if (index === 0) return url
  return previous?.nextBefore ? `${url}&before=${encodeURIComponent(previous.nextBefore)}` : null
}

export function fetchDeliveries(url: string): Promise<DeliveriesResponse> {
  return apiJson<DeliveriesResponse>('GET', url, undefined, { cache: 'no-store' })
}
