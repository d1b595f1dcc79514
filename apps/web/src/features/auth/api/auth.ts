import type { AuthResponse, ChangePasswordBody, LoginBody, RegisterBody, SavedAddress, SavedAddressesResponse } from '@tempbox/types'
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

/**
 * On a second device the account's addresses appear in the tool, not only under Account: kept beside this browser's
 * own, and the most recently created one opened when none is open here.
 */
function showSavedAddresses(addresses: readonly SavedAddress[]): void {
  const now = Date.now()
  const live = addresses
    .map((a) => ({ email: a.email, expiresAt: Date.parse(a.expiresAt), createdAt: Date.parse(a.createdAt) }))
    .filter((a) => a.expiresAt > now)
    .sort((a, b) => b.createdAt - a.createdAt)
  const store = useCurrentAddress.getState()
  store.keep(live.map(({ email, expiresAt }) => ({ email, expiresAt })))
  if (!store.email && live[0]) store.setAddress(live[0].email, live[0].expiresAt)
}

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
      const saved = await apiJson<SavedAddressesResponse>('GET', SAVED_ADDRESSES_KEY).catch(() => null)
      if (saved) {
        await mutate(SAVED_ADDRESSES_KEY, saved, { revalidate: false })
        showSavedAddresses(saved.addresses)
      } else await mutate(SAVED_ADDRESSES_KEY)
    },
    [mutate, setToken],
  )

  const signOut = useCallback(async () => {
    // The account's addresses leave this device with it: asked for while the session still opens them.
    const saved = await apiJson<SavedAddressesResponse>('GET', SAVED_ADDRESSES_KEY).catch(() => null)
    // Ends this browser's session on the server too (its refresh cookie is httpOnly: only the server can clear it).
    await apiRequest('POST', '/api/auth/sign-out').catch(() => undefined)
    clearToken()
    const { forget } = useCurrentAddress.getState()
    for (const a of saved?.addresses ?? []) forget(a.email)
    // Every cached answer (their mail among them) may belong to the account: drop them all.
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
