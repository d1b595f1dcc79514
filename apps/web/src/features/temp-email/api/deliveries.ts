import type { DeliveriesResponse } from '@tempbox/types'
import { MAX_DELIVERY_PAGE } from '@tempbox/types'
import { apiJson } from '../../../lib/api-client'
import { inboxUrl } from './inbox'

/** The whole delivery log in one page: the API keeps DELIVERY_LOG_ENTRIES (100 by default), its largest page. */
export function deliveriesUrl(email: string): string {
  return `${inboxUrl(email)}/deliveries?limit=${MAX_DELIVERY_PAGE}`
}

export function fetchDeliveries(url: string): Promise<DeliveriesResponse> {
  return apiJson<DeliveriesResponse>('GET', url, undefined, { cache: 'no-store' })
}
