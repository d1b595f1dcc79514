export const REFRESH_URL = '/api/auth/refresh'
const TOKEN_KEY = 'auth_token'

type TokenSink = (token: string | null) => void
/** Where a renewed token (or null: signed out) goes; the auth store registers itself (stores/auth-token.ts). */
let sink: TokenSink = (token) => (token ? localStorage.setItem(TOKEN_KEY, token) : localStorage.removeItem(TOKEN_KEY))
export function onRenewedToken(next: TokenSink): void {
  sink = next
}

let pending: Promise<string | null> | null = null

/**
 * A fresh access token from the httpOnly refresh cookie (POST /api/auth/refresh with its custom header), or null:
 * then the session is over and the token is dropped here (signed out locally). One renewal at a time per tab; a
 * token another tab renewed meanwhile is taken as it is.
 */
export function renewSession(failedToken: string | null): Promise<string | null> {
  pending ??= renew(failedToken).finally(() => (pending = null))
  return pending
}

async function renew(failedToken: string | null): Promise<string | null> {
  let token: string | null = null
  try {
    const res = await fetch(REFRESH_URL, { method: 'POST', headers: { 'X-Tempbox-Refresh': '1' }, credentials: 'same-origin' })
    if (res.ok) token = ((await res.json()) as { token?: unknown }).token as string
  } catch {
    // Network failure: treated as an ended session below unless another tab renewed.
  }
  if (typeof token !== 'string' || !token) {
    const current = localStorage.getItem(TOKEN_KEY)
    token = current && current !== failedToken ? current : null
  }
  sink(token)
  return token
}

/** True when the stored token's `exp` has passed (or it cannot be read), so it is renewed before use. */
export function isExpired(token: string, now = Date.now()): boolean {
  const exp = expiresAtMs(token)
  return exp === null || exp <= now
}

/**
 * The token to send: renewed first when its `exp` has passed, since routes open to guests (generating an address)
 * take an expired token as none and would answer as to a guest. An unreadable token is sent as it is.
 */
export async function usableToken(token: string | null, now = Date.now()): Promise<string | null> {
  const exp = token ? expiresAtMs(token) : null
  return token && exp !== null && exp <= now ? renewSession(token) : token
}

function expiresAtMs(token: string): number | null {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown }
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null
  } catch {
    return null
  }
}
