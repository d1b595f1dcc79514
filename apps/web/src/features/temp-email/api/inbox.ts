import type { DomainsResponse, GenerateEmailBody, GenerateEmailResponse, InboxResponse } from '@tempbox/types'
import useSWR from 'swr'
import { apiJson, apiRequest } from '../../../lib/api-client'

/** The inbox refetch interval of spec §4; the SSE stream makes it a fallback. */
export const INBOX_POLL_MS = 10_000

/** The first (newest) page of an inbox: what the poll asks for and the SWR key of that page. */
export function inboxUrl(email: string): string {
  return `/api/email/${encodeURIComponent(email)}`
}

/**
 * GET of an inbox page. `cache: 'no-cache'` keeps the answer in the browser cache but always asks the server with
 * its ETag first, so an unchanged inbox costs a 304 with no body. A `Cache-Control: no-cache` request header would
 * not do: browsers take it as "bypass the cache" and send no If-None-Match.
 */
/** Pages last read, by URL, with their ETag: inbox content is `no-store`, so the browser keeps nothing to revalidate. */
const lastPages = new Map<string, { etag: string; page: InboxResponse }>()
const MAX_LAST_PAGES = 20

export async function fetchInbox(url: string): Promise<InboxResponse> {
  const last = lastPages.get(url)
  const res = await apiRequest('GET', url, undefined, { cache: 'no-store', headers: last ? { 'If-None-Match': last.etag } : {} })
  if (res.status === 304 && last) return last.page
  const page = (await res.json()) as InboxResponse
  const etag = res.headers.get('ETag')
  lastPages.delete(url)
  if (etag) {
    if (lastPages.size >= MAX_LAST_PAGES) lastPages.delete(lastPages.keys().next().value!)
    lastPages.set(url, { etag, page })
  }
  return page
}

/** The page of messages older than message `before`. */
export function fetchOlder(email: string, before: string): Promise<InboxResponse> {
  return fetchInbox(`${inboxUrl(email)}?before=${encodeURIComponent(before)}`)
}

/** The forced refresh of "Check emails": `?refresh=true&t=<ts>` with no-cache and pragma headers (spec §7). */
export function refreshInbox(email: string): Promise<InboxResponse> {
  const url = `${inboxUrl(email)}?refresh=true&t=${Date.now()}`
  return apiJson<InboxResponse>('GET', url, undefined, { headers: { 'Cache-Control': 'no-cache', Pragma: 'no-cache' }, cache: 'no-store' })
}

export function generateEmail(body: GenerateEmailBody = {}): Promise<GenerateEmailResponse> {
  return apiJson<GenerateEmailResponse>('POST', '/api/email/generate', body)
}

/** Releases an address before it expires: the server deletes it with its mail and frees its place under the limit. */
export async function releaseAddress(email: string): Promise<void> {
  await apiRequest('DELETE', inboxUrl(email))
}

/** The newest page of the inbox of `email`, refetched every 10 s while there is an address. */
export function useInbox(email: string | null) {
  return useSWR<InboxResponse>(email ? inboxUrl(email) : null, fetchInbox, { refreshInterval: INBOX_POLL_MS })
}

/** Domains an address can be created on (issue 3 "Your own address"). */
export function useDomains(enabled: boolean) {
  return useSWR<DomainsResponse>(enabled ? '/api/email/domains' : null)
}
