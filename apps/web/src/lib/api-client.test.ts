import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ApiError, apiJson, apiRequest, AUTH_TOKEN_KEY } from './api-client'

const server = setupServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

function capture(method: 'get' | 'post', status = 200) {
  const seen: Request[] = []
  server.use(
    http[method]('/api/thing', ({ request }) => {
      seen.push(request.clone())
      return HttpResponse.json({ ok: true }, { status })
    }),
  )
  return seen
}

describe('apiRequest (spec §7)', () => {
  it('sends the stored token as a Bearer header', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 'tok-123')
    const seen = capture('get')
    await apiRequest('GET', '/api/thing')
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok-123')
  })

  it('sends no Authorization header without a token', async () => {
    const seen = capture('get')
    await apiRequest('GET', '/api/thing')
    expect(seen[0]!.headers.has('authorization')).toBe(false)
  })

  it('sends a JSON content type and body only when there is a body', async () => {
    const seen = capture('post')
    await apiRequest('POST', '/api/thing', { a: 1 })
    await apiRequest('POST', '/api/thing')
    expect(seen[0]!.headers.get('content-type')).toBe('application/json')
    expect(await seen[0]!.json()).toEqual({ a: 1 })
    expect(seen[1]!.headers.has('content-type')).toBe(false)
    expect(await seen[1]!.text()).toBe('')
  })

  it('always includes credentials', async () => {
    const seen = capture('get')
    await apiRequest('GET', '/api/thing')
    expect(seen[0]!.credentials).toBe('include')
  })

  it('raises with the body error field first', async () => {
    server.use(http.get('/api/thing', () => HttpResponse.json({ error: 'That name is taken.', message: 'other', code: 'address_taken' }, { status: 409 })))
    const error = await apiRequest('GET', '/api/thing').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).message).toBe('That name is taken.')
    expect((error as ApiError).status).toBe(409)
    expect((error as ApiError).code).toBe('address_taken')
  })

  it('falls back to the message field', async () => {
    server.use(http.get('/api/thing', () => HttpResponse.json({ message: 'Bad input' }, { status: 400 })))
    await expect(apiRequest('GET', '/api/thing')).rejects.toThrow('Bad input')
  })

  it('falls back to "status statusText" when the body has neither or is not JSON', async () => {
    server.use(http.get('/api/thing', () => HttpResponse.json({}, { status: 500, statusText: 'Internal Server Error' })))
    await expect(apiRequest('GET', '/api/thing')).rejects.toThrow('500 Internal Server Error')
    server.use(http.get('/api/thing', () => new HttpResponse('<html>oops</html>', { status: 502, statusText: 'Bad Gateway' })))
    await expect(apiRequest('GET', '/api/thing')).rejects.toThrow('502 Bad Gateway')
  })

  it('apiJson decodes the answer', async () => {
    capture('get')
    expect(await apiJson('GET', '/api/thing')).toEqual({ ok: true })
  })
})

describe('renewing the 15-minute access token', () => {
  it('on a 401, renews once through /api/auth/refresh with its header and retries with the new token', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 'old')
    const renewals: Request[] = []
    const seen: (string | null)[] = []
    server.use(
      http.get('/api/thing', ({ request }) => {
        seen.push(request.headers.get('authorization'))
        return request.headers.get('authorization') === 'Bearer new'
          ? HttpResponse.json({ ok: true })
          : HttpResponse.json({ error: 'Your session has expired. Please sign in again.', code: 'unauthorized' }, { status: 401 })
      }),
      http.post('/api/auth/refresh', ({ request }) => {
        renewals.push(request.clone())
        return HttpResponse.json({ token: 'new', user: {} })
      }),
    )
    expect(await apiJson('GET', '/api/thing')).toEqual({ ok: true })
    expect(seen).toEqual(['Bearer old', 'Bearer new'])
    expect(renewals).toHaveLength(1)
    expect(renewals[0]!.headers.get('x-tempbox-refresh')).toBe('1')
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('new')
  })

  it('when renewal is refused, signs out locally and throws the 401', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 'old')
    server.use(
      http.get('/api/thing', () => HttpResponse.json({ error: 'Your session has expired. Please sign in again.', code: 'unauthorized' }, { status: 401 })),
      http.post('/api/auth/refresh', () => HttpResponse.json({ error: 'Your session has ended. Please sign in again.', code: 'unauthorized' }, { status: 401 })),
    )
    await expect(apiRequest('GET', '/api/thing')).rejects.toMatchObject({ status: 401, message: 'Your session has expired. Please sign in again.' })
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull()
  })

  it('renews a token whose exp has passed before sending it: a route open to guests would take it as none', async () => {
    const expired = `x.${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 5 }))}.y`
    localStorage.setItem(AUTH_TOKEN_KEY, expired)
    const seen: (string | null)[] = []
    server.use(
      http.post('/api/email/generate', ({ request }) => {
        seen.push(request.headers.get('authorization'))
        return HttpResponse.json({ email: 'a@tempbox.test' })
      }),
      http.post('/api/auth/refresh', () => HttpResponse.json({ token: 'new', user: {} })),
    )
    expect(await apiJson('POST', '/api/email/generate')).toEqual({ email: 'a@tempbox.test' })
    expect(seen).toEqual(['Bearer new'])
  })
})
