import type { SWRConfiguration } from 'swr'
import { ApiError, AUTH_TOKEN_KEY } from './api-client'
import { renewSession, usableToken } from './session-renewal'

/**
 * The default data loader of spec §7: GET on the key parts joined with "/", Bearer + credentials; an expired access
 * token is renewed through the refresh cookie as in apiRequest. Throws "status: text" on any non-OK answer (401 included).
 */
export async function defaultFetcher<T>(key: string | readonly unknown[]): Promise<T> {
  const url = Array.isArray(key) ? key.join('/') : String(key)
  const get = (token: string | null) => fetch(url, { credentials: 'include', headers: token ? { Authorization: `Bearer ${token}` } : {} })
  const token = await usableToken(localStorage.getItem(AUTH_TOKEN_KEY))
  let res = await get(token)
  if (res.status === 401 && token) {
    const renewed = await renewSession(token)
    if (renewed) res = await get(renewed)
  }
  if (!res.ok) {
    const text = (await res.text().catch(() => '')) || res.statusText
    throw new ApiError(`${res.status}: ${text}`, res.status)
  }
  return (await res.json()) as T
}

/** No retries, no refetch on focus, no interval refetch, never stale (spec §7). */
export const swrConfig: SWRConfiguration = {
  fetcher: defaultFetcher,
  shouldRetryOnError: false,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  revalidateIfStale: false,
  refreshInterval: 0,
}
