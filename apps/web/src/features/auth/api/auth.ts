import type { AuthResponse, ChangePasswordBody, LoginBody, RegisterBody, SavedAddressesResponse } from '@tempbox/types'
import { useCallback } from 'react'
import useSWR, { useSWRConfig } from 'swr'
import { apiJson, apiRequest } from '../../../lib/api-client'
import { useCurrentAddress } from '../../../stores/current-address'
import { useAuthToken } from '../../../stores/auth-token'
import { CURRENT_USER_KEY } from '../../../lib/current-user'

export const SAVED_ADDRESSES_KEY = '/api/auth/addresses'

export const login = (body: LoginBody) => apiJson<AuthResponse>('POST', '/api/auth/login', body)
export const register = (body: RegisterBody) => apiJson<AuthResponse>('POST', '/api/auth/register', body)
/** Asks for the account's password (403 `wrong_password` when it is not). */
export const deleteAccount = (password: string) => apiRequest('DELETE', '/api/auth/account', { password })
/** Answers a fresh token: the old one (and every other session's) stops working. */
export const changePassword = (body: ChangePasswordBody) => apiJson<AuthResponse>('POST', '/api/auth/password', body)
export const signOutEverywhere = () => apiRequest('POST', '/api/auth/sign-out-everywhere')

/** Session changes: store or drop the token and set or clear the cached current user (spec §4). */
export function useSession() {
  const { mutate } = useSWRConfig()
  const setToken = useAuthToken((s) => s.setToken)
  const clearToken = useAuthToken((s) => s.clearToken)

  const signIn = useCallback(
    async (result: AuthResponse) => {
      setToken(result.token)
      await mutate(CURRENT_USER_KEY, { user: result.user }, { revalidate: false })
      // The address in use is saved to the account, so it can be opened from any device. One that another account
      // holds, or that just expired, simply is not saved: signing in goes on either way.
      const email = useCurrentAddress.getState().email
      if (email) await apiRequest('POST', SAVED_ADDRESSES_KEY, { email }).catch(() => undefined)
      await mutate(SAVED_ADDRESSES_KEY)
    },
    [mutate, setToken],
  )

  const signOut = useCallback(async () => {
    // Ends this browser's session on the server too (its refresh cookie is httpOnly: only the server can clear it).
    await apiRequest('POST', '/api/auth/sign-out').catch(() => undefined)
    clearToken()
    // Every cached answer may belong to the account: drop them all.
    await mutate(() => true, undefined, { revalidate: false })
  }, [mutate, clearToken])

  return { signIn, signOut }
}

/**
 * Unexpired addresses saved to the account, on any device. Fetched afresh each time the account view opens
 * (no deduping): an address generated a moment ago must already be listed.
 */
export function useSavedAddresses(enabled: boolean) {
  return useSWR<SavedAddressesResponse>(enabled ? SAVED_ADDRESSES_KEY : null, { revalidateOnMount: true, dedupingInterval: 0 })
}
