import { create } from 'zustand'
import { AUTH_TOKEN_KEY } from '../lib/api-client'
import { isExpired, onRenewedToken, renewSession } from '../lib/session-renewal'

interface AuthTokenState {
  token: string | null
  setToken: (token: string) => void
  clearToken: () => void
}

function readToken(): string | null {
  try {
    return localStorage.getItem(AUTH_TOKEN_KEY)
  } catch {
    return null
  }
}

/**
 * The session token, mirrored from localStorage (`auth_token`, spec §4) so components re-render when it changes;
 * the request helper keeps reading localStorage itself.
 */
export const useAuthToken = create<AuthTokenState>()((set) => ({
  token: readToken(),
  setToken: (token) => {
    localStorage.setItem(AUTH_TOKEN_KEY, token)
    set({ token })
  },
  clearToken: () => {
    localStorage.removeItem(AUTH_TOKEN_KEY)
    set({ token: null })
  },
}))

onRenewedToken((token) => (token ? useAuthToken.getState().setToken(token) : useAuthToken.getState().clearToken()))

// A token stored by an earlier visit has likely expired: renew it at start rather than on the first 401.
const atStart = useAuthToken.getState().token
if (atStart && isExpired(atStart)) void renewSession(atStart)
