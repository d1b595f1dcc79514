import type { MeResponse, PublicUser } from '@tempbox/types'
import { useEffect } from 'react'
import useSWR from 'swr'
import { ApiError } from './api-client'
import { useAuthToken } from '../stores/auth-token'

export const CURRENT_USER_KEY = '/api/auth/me'

export function isAdminRole(role: string | null | undefined): boolean {
  return role === 'admin' || role === 'owner'
}

/** The signed-in account; asked for only while a token is stored (spec §4). Admin means admin or owner (spec §6). */
export function useCurrentUser(): { user: PublicUser | null; isAdmin: boolean; isLoading: boolean } {
  const token = useAuthToken((s) => s.token)
  const clearToken = useAuthToken((s) => s.clearToken)
  const { data, error, isLoading } = useSWR<MeResponse>(token ? CURRENT_USER_KEY : null)
  const unauthorized = error instanceof ApiError && error.status === 401
  useEffect(() => {
    // An expired or revoked token: back to guest.
    if (unauthorized) clearToken()
  }, [unauthorized, clearToken])
  const user = token && !error ? (data?.user ?? null) : null
  return { user, isAdmin: isAdminRole(user?.role), isLoading: Boolean(token) && isLoading }
}
