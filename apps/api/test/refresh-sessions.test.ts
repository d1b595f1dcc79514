import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildTestApp } from './helper.js'
import type { App } from '../src/app.js'

/** Over real HTTP (fetch against a listening api), with the cookie jar a browser would keep by hand. */
let app: App
let base: string
afterEach(() => app.close())

async function start(env: Record<string, string> = {}): Promise<void> {
  app = await buildTestApp(env)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}

interface Browser {
  token: string
  cookie: string | null
}

const REVOKED = 'This session was signed out (password changed or signed out everywhere). Please sign in again.'
const ENDED = { error: 'Your session has ended. Please sign in again.', code: 'unauthorized' }

function refreshCookie(res: Response): { value: string; attributes: string } | null {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('tempbox_refresh='))
  if (!line) return null
  const [pair, ...attributes] = line.split('; ')
  return { value: pair!.slice('tempbox_refresh='.length), attributes: attributes.join('; ') }
}

async function call(method: string, path: string, options: { token?: string; cookie?: string | null; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.cookie) headers.cookie = `tempbox_refresh=${options.cookie}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  return fetch(base + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) })
}

let counter = 0
async function register(email = `refresh${++counter}@example.com`): Promise<Browser & { email: string; expiresAt: number }> {
  const res = await call('POST', '/api/auth/register', { body: { email, password: 'secret-pass' } })
  expect(res.status).toBe(200)
  const body = (await res.json()) as { token: string; expiresAt: string }
  return { email, token: body.token, cookie: refreshCookie(res)!.value, expiresAt: Date.parse(body.expiresAt) }
}

const me = (token: string) => call('GET', '/api/auth/me', { token })
const renew = (cookie: string | null) => call('POST', '/api/auth/refresh', { cookie, headers: { 'x-tempbox-refresh': '1' } })

describe('access tokens and the refresh cookie', () => {
  it('sets an HttpOnly, Secure, SameSite=Strict refresh cookie for /api/auth only, lasting the refresh lifetime', async () => {
    await start()
    const res = await call('POST', '/api/auth/register', { body: { email: 'flags@example.com', password: 'secret-pass' } })
    const cookie = refreshCookie(res)!
    expect(cookie.attributes.split('; ')).toEqual(expect.arrayContaining(['Path=/api/auth', 'HttpOnly', 'Secure', 'SameSite=Strict']))
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie.attributes)![1]!)
    expect(Math.abs(expires - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000)
    const body = (await res.json()) as { token: string; expiresAt: string }
    expect(Math.abs(Date.parse(body.expiresAt) - (Date.now() + 15 * 60_000))).toBeLessThan(60_000)
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it('refuses an access token once its lifetime has passed, and the refresh cookie renews it with a new cookie', async () => {
    await start({ ACCESS_TOKEN_TTL: '1m' })
    // The api runs in this process, so this is its clock: the token's lifetime passes when the test says, not when a
    // busy machine gets to the next request. A token's times are whole seconds (JWT), so the clock starts on one.
    vi.useFakeTimers({ toFake: ['Date'], now: Math.ceil(Date.now() / 1000) * 1000 })
    try {
      const browser = await register()
      expect(browser.expiresAt).toBe(Date.now() + 60_000)
      vi.setSystemTime(browser.expiresAt - 1)
      expect((await me(browser.token)).status).toBe(200)
      vi.setSystemTime(browser.expiresAt + 1)
      const res = await me(browser.token)
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ error: 'Your session has expired. Please sign in again.', code: 'unauthorized' })

      const renewed = await renew(browser.cookie)
      expect(renewed.status).toBe(200)
      const body = (await renewed.json()) as { token: string; user: { email: string } }
      expect(body.user.email).toBe(browser.email)
      expect((await me(body.token)).status).toBe(200)
      // The cookie is replaced at each renewal: a copy of the old one no longer renews.
      const next = refreshCookie(renewed)!.value
      expect(next).not.toBe(browser.cookie)
      const replayed = await renew(browser.cookie)
      expect(replayed.status).toBe(401)
      expect(await replayed.json()).toEqual(ENDED)
      expect((await renew(next)).status).toBe(200)
    } finally {
      vi.useRealTimers()
    }
  })

  it('refuses a renewal without the X-Tempbox-Refresh header, or without a cookie', async () => {
    await start()
    const browser = await register()
    const bare = await call('POST', '/api/auth/refresh', { cookie: browser.cookie })
    expect(bare.status).toBe(403)
    expect(await bare.json()).toEqual({
      error: 'Renewing a session needs the X-Tempbox-Refresh: 1 header, which only the Tempbox web app sends.',
      code: 'forbidden',
    })
    const none = await renew(null)
    expect(none.status).toBe(401)
    expect(await none.json()).toEqual(ENDED)
    // The refused attempts used nothing up.
    expect((await renew(browser.cookie)).status).toBe(200)
  })

  it('signing out ends this browser’s access token and refresh cookie, and no other browser’s', async () => {
    await start()
    const laptop = await register()
    const login = await call('POST', '/api/auth/login', { body: { email: laptop.email, password: 'secret-pass' } })
    const phone = { token: ((await login.json()) as { token: string }).token, cookie: refreshCookie(login)!.value }

    const out = await call('POST', '/api/auth/sign-out', { token: laptop.token, cookie: laptop.cookie })
    expect(out.status).toBe(200)
    expect(await out.json()).toEqual({ success: true, message: 'You have been signed out.' })
    expect(refreshCookie(out)!.value).toBe('')
    const res = await me(laptop.token)
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ error: REVOKED, code: 'unauthorized' })
    expect((await renew(laptop.cookie)).status).toBe(401)
    expect((await me(phone.token)).status).toBe(200)
    expect((await renew(phone.cookie)).status).toBe(200)
  })

  it('a password change ends every refresh cookie and access token, and this browser gets new ones', async () => {
    await start()
    const victim = await register()
    const stolen = { ...victim }
    const changed = await call('POST', '/api/auth/password', { token: victim.token, body: { currentPassword: 'secret-pass', newPassword: 'after-the-theft' } })
    expect(changed.status).toBe(200)
    const fresh = { token: ((await changed.json()) as { token: string }).token, cookie: refreshCookie(changed)!.value }
    expect((await me(stolen.token)).status).toBe(401)
    const res = await renew(stolen.cookie)
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual(ENDED)
    expect((await me(fresh.token)).status).toBe(200)
    expect((await renew(fresh.cookie)).status).toBe(200)
  })

  it('signing out everywhere ends every refresh cookie, this one included', async () => {
    await start()
    const browser = await register()
    const out = await call('POST', '/api/auth/sign-out-everywhere', { token: browser.token, cookie: browser.cookie })
    expect(out.status).toBe(200)
    expect((await renew(browser.cookie)).status).toBe(401)
  })

  it('signing out with the access token alone, or the refresh cookie alone, ends that one session', async () => {
    await start()
    const byToken = await register()
    expect((await call('POST', '/api/auth/sign-out', { token: byToken.token })).status).toBe(200)
    expect(await (await me(byToken.token)).json()).toEqual({ error: REVOKED, code: 'unauthorized' })
    expect(await (await renew(byToken.cookie)).json()).toEqual(ENDED)

    const byCookie = await register()
    const out = await call('POST', '/api/auth/sign-out', { cookie: byCookie.cookie })
    expect(out.status).toBe(200)
    expect(await out.json()).toEqual({ success: true, message: 'You have been signed out.' })
    expect(await (await renew(byCookie.cookie)).json()).toEqual(ENDED)
    expect(await (await me(byCookie.token)).json()).toEqual({ error: REVOKED, code: 'unauthorized' })
  })

  it('a replaced copy of the refresh cookie signs nothing out', async () => {
    await start()
    const browser = await register()
    const renewed = await renew(browser.cookie)
    const current = { token: ((await renewed.json()) as { token: string }).token, cookie: refreshCookie(renewed)!.value }
    expect((await call('POST', '/api/auth/sign-out', { cookie: browser.cookie })).status).toBe(200)
    expect((await me(current.token)).status).toBe(200)
    expect((await renew(current.cookie)).status).toBe(200)
  })

  it('does not renew a session from its end on, nor one signed in under an older token version, and ends both', async () => {
    await start()
    const ending = await register()
    const id = ending.cookie!.split('.')[0]!
    const { expires_at: end } = await app.db.selectFrom('auth_session').select('expires_at').where('id', '=', id).executeTakeFirstOrThrow()
    await expect(app.sessionService.renew(ending.cookie!, end)).rejects.toMatchObject({ statusCode: 401, message: ENDED.error })
    // Ended, not just refused at that moment: the cookie no longer renews now either.
    expect(await (await renew(ending.cookie)).json()).toEqual(ENDED)

    const stale = await register()
    const user = await app.db.selectFrom('user').select(['id', 'token_version']).where('email', '=', stale.email).executeTakeFirstOrThrow()
    await app.db.updateTable('user').set({ token_version: user.token_version + 1 }).where('id', '=', user.id).execute()
    const res = await renew(stale.cookie)
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual(ENDED)
    await app.db.updateTable('user').set({ token_version: user.token_version }).where('id', '=', user.id).execute()
    expect(await (await renew(stale.cookie)).json()).toEqual(ENDED)
  })

  it('keeps MAX_SESSIONS_PER_ACCOUNT sessions per account: a new sign-in ends the oldest', async () => {
    await start({ MAX_SESSIONS_PER_ACCOUNT: '2' })
    const first = await register()
    const signIn = async () => {
      const res = await call('POST', '/api/auth/login', { body: { email: first.email, password: 'secret-pass' } })
      return { token: ((await res.json()) as { token: string }).token, cookie: refreshCookie(res)!.value }
    }
    const second = await signIn()
    const third = await signIn()
    expect((await me(first.token)).status).toBe(401)
    expect((await renew(first.cookie)).status).toBe(401)
    expect((await me(second.token)).status).toBe(200)
    expect((await renew(third.cookie)).status).toBe(200)
  })
})
