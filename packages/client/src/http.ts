import type { ErrorBody } from '@tempbox/types'
import { TempboxError } from './errors.js'

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

/** The API's origin plus `/api`, however the base URL was given (site root or API root, with or without a slash). */
export function apiRoot(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '')
  return trimmed.endsWith('/api') ? trimmed : `${trimmed}/api`
}

/** Query string of the defined values only. */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value))
  const text = search.toString()
  return text ? `?${text}` : ''
}

/** Throws the API's error answer as a TempboxError; a body that is not ours (a proxy's page) still gives a status. */
export async function ensureOk(res: Response): Promise<Response> {
  if (res.ok) return res
  const text = await res.text()
  let body: Partial<ErrorBody> | null = null
  try {
    body = JSON.parse(text) as Partial<ErrorBody>
  } catch {
    // not JSON: answered by something in front of the API
  }
  if (body && typeof body.error === 'string' && typeof body.code === 'string') throw new TempboxError(body.error, body.code, res.status, body.fields)
  throw new TempboxError(`The server answered ${res.status} ${res.statusText} without an error body: ${text.slice(0, 200)}`, 'unexpected_response', res.status)
}

/** The API root and the fetch to reach it, shared by a client and its inboxes. */
export class Api {
  constructor(
    readonly root: string,
    private readonly fetcher: FetchLike | undefined,
  ) {}

  async request(path: string, init?: RequestInit): Promise<Response> {
    // Looked up per call: a global fetch replaced after the client was made (test recorders) is honoured.
    const fetcher = this.fetcher ?? ((input: string, options?: RequestInit) => globalThis.fetch(input, options))
    return ensureOk(await fetcher(`${this.root}${path}`, { ...init, headers: { accept: 'application/json', ...init?.headers } }))
  }

  async json<T>(path: string, init?: RequestInit): Promise<T> {
    return (await (await this.request(path, init)).json()) as T
  }
}
