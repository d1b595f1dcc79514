import type { SiteConfigResponse } from '@tempbox/types'
import useSWR from 'swr'

/** Read once per page load: the addresses change only when the server is reconfigured and restarted. */
const ONCE = { revalidateOnFocus: false, revalidateOnReconnect: false, revalidateIfStale: false, dedupingInterval: 3_600_000 }

/**
 * The deployment's contact addresses (SUPPORT_EMAIL, PRIVACY_EMAIL, LEGAL_EMAIL on the server), so no build carries
 * an address of its own. Empty strings until they arrive; callers show no link for an empty one.
 */
export function useSiteEmails(): { support: string; privacy: string; legal: string } {
  const { data } = useSWR<SiteConfigResponse>('/api/config', ONCE)
  return { support: data?.supportEmail ?? '', privacy: data?.privacyEmail ?? '', legal: data?.legalEmail ?? '' }
}
