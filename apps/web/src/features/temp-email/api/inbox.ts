import type { DomainsResponse, GenerateEmailBody, GenerateEmailResponse, InboxResponse } from '@tempbox/types'
import useSWR from 'swr'
import { apiJson } from '../../../lib/api-client'

/** The inbox refetch interval of spec §4; the SSE stream makes it a fallback. */
export const INBOX_POLL_MS = 10_000

export function inboxUrl(email: string): string {
  return `/api/email/${encodeURIComponent(email)}`
}

const NO_CACHE = { 'Cache-Control': 'no-cache' }

/** GET /api/email/{address} with the no-cache header (spec §7). */
export function fetchInbox(url: string): Promise<InboxResponse> {
  return apiJson<InboxResponse>('GET', url, undefined, { headers: NO_CACHE, cache: 'no-store' })
}

/** The forced refresh of "Check emails": `?refresh=true&t=<ts>` with no-cache and pragma headers (spec §7). */
export function refreshInbox(email: string): Promise<InboxResponse> {
  const url = `${inboxUrl(email)}?refresh=true&t=${Date.now()}`
  return apiJson<InboxResponse>('GET', url, undefined, { headers: { ...NO_CACHE, Pragma: 'no-cache' }, cache: 'no-store' })
}

export function generateEmail(body: GenerateEmailBody = {}): Promise<GenerateEmailResponse> {
  return apiJson<GenerateEmailResponse>('POST', '/api/email/generate', body)
}

/** The inbox of `email`, refetched every 10 s while there is an address. */
export function useInbox(email: string | null) {
  return useSWR<InboxResponse>(email ? inboxUrl(email) : null, fetchInbox, { refreshInterval: INBOX_POLL_MS })
}

/** Domains an address can be created on (issue 3 "Your own address"). */
export function useDomains(enabled: boolean) {
  return useSWR<DomainsResponse>(enabled ? '/api/email/domains' : null)
}
