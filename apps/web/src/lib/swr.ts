import type { SWRConfiguration } from 'swr'
import { ApiError, AUTH_TOKEN_KEY } from './api-client'

/**
 * The default data loader of spec §7: GET on the key parts joined with "/", Bearer + credentials;
 * throws "status: text" on any non-OK answer (401 included).
 */
export async function defaultFetcher<T>(key: string | readonly unknown[]): Promise<T> {
  const url = Array.isArray(key) ? key.join('/') : String(key)
  const token = localStorage.getItem(AUTH_TOKEN_KEY)
  const res = await fetch(url, { credentials: 'include', headers: token ? { Authorization: `Bearer ${token}` } : {} })
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
