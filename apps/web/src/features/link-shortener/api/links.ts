import type { ListLinksResponse, ShortLink } from '@tempbox/types'
import { apiJson } from '../../../lib/api-client'

export function createShortLink(url: string): Promise<ShortLink> {
  return apiJson<ShortLink>('POST', '/api/links', { url })
}

export function fetchShortLinks(codes: readonly string[]): Promise<ListLinksResponse> {
  return apiJson<ListLinksResponse>('GET', `/api/links?codes=${encodeURIComponent(codes.join(','))}`)
}
