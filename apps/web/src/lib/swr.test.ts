import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ApiError, AUTH_TOKEN_KEY } from './api-client'
import { defaultFetcher, swrConfig } from './swr'

const server = setupServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

describe('defaultFetcher (spec §7)', () => {
  it('GETs the key parts joined with "/" with the Bearer header and credentials', async () => {
    const seen: Request[] = []
    server.use(
      http.get('/api/email/abc', ({ request }) => {
        seen.push(request)
        return HttpResponse.json({ messages: [] })
      }),
    )
    localStorage.setItem(AUTH_TOKEN_KEY, 'tok')
    expect(await defaultFetcher(['/api/email', 'abc'])).toEqual({ messages: [] })
    expect(seen[0]!.method).toBe('GET')
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok')
    expect(seen[0]!.credentials).toBe('include')
  })

  it('accepts a plain string key', async () => {
    server.use(http.get('/api/x', () => HttpResponse.json(1)))
    expect(await defaultFetcher('/api/x')).toBe(1)
  })

  it('raises on 401 with "status: response text"', async () => {
    localStorage.removeItem(AUTH_TOKEN_KEY)
    server.use(http.get('/api/auth/me', () => new HttpResponse('{"error":"Sign in first."}', { status: 401, statusText: 'Unauthorized' })))
    const error = await defaultFetcher('/api/auth/me').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).message).toBe('401: {"error":"Sign in first."}')
    expect((error as ApiError).status).toBe(401)
  })

  it('uses the status text when the response text is empty', async () => {
    server.use(http.get('/api/x', () => new HttpResponse(null, { status: 503, statusText: 'Service Unavailable' })))
    await expect(defaultFetcher('/api/x')).rejects.toThrow('503: Service Unavailable')
  })
})

describe('defaultFetcher and the 15-minute access token', () => {
  it('on a 401, renews once through the refresh cookie and reads again with the new token', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 'old')
    const seen: (string | null)[] = []
    server.use(
      http.get('/api/auth/addresses', ({ request }) => {
        seen.push(request.headers.get('authorization'))
        return request.headers.get('authorization') === 'Bearer new' ? HttpResponse.json({ addresses: [] }) : HttpResponse.json({ error: 'expired' }, { status: 401 })
      }),
      http.post('/api/auth/refresh', ({ request }) => HttpResponse.json({ token: request.headers.get('x-tempbox-refresh') === '1' ? 'new' : 'bad' })),
    )
    expect(await defaultFetcher('/api/auth/addresses')).toEqual({ addresses: [] })
    expect(seen).toEqual(['Bearer old', 'Bearer new'])
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('new')
  })

  it('renews a token whose exp has passed before reading', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, `x.${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 5 }))}.y`)
    const seen: (string | null)[] = []
    server.use(
      http.get('/api/auth/me', ({ request }) => {
        seen.push(request.headers.get('authorization'))
        return HttpResponse.json({ user: {} })
      }),
      http.post('/api/auth/refresh', () => HttpResponse.json({ token: 'new' })),
    )
    await defaultFetcher('/api/auth/me')
    expect(seen).toEqual(['Bearer new'])
  })
})

describe('swrConfig (spec §7)', () => {
  it('never retries, never refetches on focus or interval, never goes stale', () => {
    expect(swrConfig.shouldRetryOnError).toBe(false)
    expect(swrConfig.revalidateOnFocus).toBe(false)
    expect(swrConfig.refreshInterval).toBe(0)
    expect(swrConfig.revalidateIfStale).toBe(false)
    expect(swrConfig.fetcher).toBe(defaultFetcher)
  })
})
