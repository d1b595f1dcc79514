import type { ContactsResponse, DashboardStats, RealtimeStats } from '@tempbox/types'
import useSWR from 'swr'
import { apiRequest } from '../../../lib/api-client'

export const PERIODS = [7, 30, 90] as const
export type Period = (typeof PERIODS)[number]
export const DEFAULT_PERIOD: Period = 30
const REALTIME_REFRESH_MS = 30_000
export const CONTACTS_PAGE_SIZE = 10

// Asked for only when the user is signed in and allowed (spec §4): callers pass enabled.
export function useRealtimeStats(enabled: boolean) {
  return useSWR<RealtimeStats>(enabled ? '/api/analytics/realtime' : null, { refreshInterval: REALTIME_REFRESH_MS, revalidateOnMount: true })
}

export function useDashboardStats(enabled: boolean, days: Period) {
  return useSWR<DashboardStats>(enabled ? `/api/analytics/dashboard?days=${days}` : null, { revalidateOnMount: true })
}

export function contactsKey(page = 1) {
  return `/api/analytics/contacts?page=${page}&limit=${CONTACTS_PAGE_SIZE}`
}

export function useContacts(enabled: boolean) {
  return useSWR<ContactsResponse>(enabled ? contactsKey() : null, { revalidateOnMount: true })
}

export async function updateContactStatus(id: number, status: 'read' | 'replied'): Promise<void> {
  await apiRequest('PATCH', `/api/analytics/contacts/${id}/status`, { status })
}

/** Fire-and-forget: a lost page view must never bother the visitor. */
export function reportPageView(path: string): void {
  fetch('/api/analytics/pageview', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ path }),
    keepalive: true,
  }).catch(() => undefined)
}
