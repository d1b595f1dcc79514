import { REFRESH_URL, renewSession, usableToken } from './session-renewal'

/** localStorage key of the session token (spec §7). */
export const AUTH_TOKEN_KEY = 'auth_token'

/** An API failure; `message` is what the user reads. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string | undefined
  /** The server's sentence per refused field (`{ email: "…" }`), so a form can show each at its field. */
  readonly fields: Readonly<Record<string, string>>
  constructor(message: string, status: number, code?: string, fields: Record<string, string> = {}) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.fields = fields
  }
}

function storedToken(): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(AUTH_TOKEN_KEY)
  } catch {
    return null
  }
}

/** Routes whose 401 is an answer (wrong password, ended session), not an access token to renew. */
const NO_RENEWAL = new Set(['/api/auth/login', '/api/auth/register', REFRESH_URL])

/**
 * The shared request helper of spec §7: Bearer token when stored, JSON content type only with a body,
 * credentials always; a non-OK answer throws with body.error, else body.message, else "status statusText".
 */
export async function apiRequest(method: string, url: string, body?: unknown, init: RequestInit = {}): Promise<Response> {
  const send = (token: string | null) => {
    const headers: Record<string, string> = { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string> | undefined) }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    return fetch(url, { ...init, method, headers, body: body !== undefined ? JSON.stringify(body) : undefined, credentials: 'include' })
  }
  const token = NO_RENEWAL.has(url) ? storedToken() : await usableToken(storedToken())
  let res = await send(token)
  // The access token lives 15 minutes: renew it once through the refresh cookie and try again.
  if (res.status === 401 && token && !NO_RENEWAL.has(url)) {
    const renewed = await renewSession(token)
    if (renewed) res = await send(renewed)
  }
  // 304 answers only a caller that sent If-None-Match itself: it is that caller's to handle.
  if (!res.ok && res.status !== 304) {
    let message = `${res.status} ${res.statusText}`
    let code: string | undefined
    const fields: Record<string, string> = {}
    try {
      const data = (await res.json()) as { error?: unknown; message?: unknown; code?: unknown; fields?: unknown }
      if (typeof data.error === 'string' && data.error) message = data.error
      else if (typeof data.message === 'string' && data.message) message = data.message
      if (typeof data.code === 'string') code = data.code
      if (data.fields && typeof data.fields === 'object') {
        for (const [field, text] of Object.entries(data.fields)) if (typeof text === 'string') fields[field] = text
      }
    } catch {
      // Body was not JSON: keep "status statusText".
    }
    throw new ApiError(message, res.status, code, fields)
  }
  return res
}

/** apiRequest + JSON decode. */
export async function apiJson<T>(method: string, url: string, body?: unknown, init?: RequestInit): Promise<T> {
  const res = await apiRequest(method, url, body, init)
  return (await res.json()) as T
}
