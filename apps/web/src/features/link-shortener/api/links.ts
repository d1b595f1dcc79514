import type { CreatedShortLink, ListLinksResponse } from '@tempbox/types'
import { apiJson } from '../../../lib/api-client'

export function createShortLink(url: string): Promise<CreatedShortLink> {
  return apiJson<CreatedShortLink>('POST', '/api/links', { url })
}

/** Fresh counts of this browser's links: each code with the secret the server gave this browser when it was made. */
export function fetchShortLinks(links: readonly { code: string; secret: string }[]): Promise<ListLinksResponse> {
  return apiJson<ListLinksResponse>('POST', '/api/links/lookup', { links: links.map(({ code, secret }) => ({ code, secret })) })
}
