import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildTestApp } from './helper.js'
import { bearer, signUp } from './auth-helpers.js'
import { expectRateLimited } from './rate-limit-answer.js'
import type { App } from '../src/app.js'

const REVOKED = 'This session was signed out (password changed or signed out everywhere). Please sign in again.'
let app: App
beforeEach(async () => {
  app = await buildTestApp()
})
afterEach(() => app.close())

const me = (token: string) => app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })
const login = (email: string, password: string) => app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })
const changePassword = (token: string, currentPassword: string, newPassword: string) =>
  app.inject({ method: 'POST', url: '/api/auth/password', headers: bearer(token), payload: { currentPassword, newPassword } })

describe('change password', () => {
  it('needs the current password, then signs in with the new one only and hands this session a fresh token', async () => {
    const { email, token } = await signUp(app)
    const res = await changePassword(token, 'secret-pass', 'brand-new-pass')
    expect(res.statusCode).toBe(200)
    const fresh = res.json() as { token: string; user: { email: string } }
    expect(fresh.user.email).toBe(email)
    expect((await me(fresh.token)).statusCode).toBe(200)
    expect((await login(email, 'secret-pass')).statusCode).toBe(401)
    expect((await login(email, 'brand-new-pass')).statusCode).toBe(200)
  })

  it('a token stolen before the change stops working at once, on every route', async () => {
    const victim = await signUp(app)
    const stolen = victim.token
    // The thief's copy works for now…
    expect((await me(stolen)).statusCode).toBe(200)
    expect((await changePassword(victim.token, 'secret-pass', 'after-the-theft')).statusCode).toBe(200)
    // …and no longer, with a sentence that says why.
    const res = await me(stolen)
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: REVOKED, code: 'unauthorized' })
    for (const [method, url] of [['GET', '/api/auth/addresses'], ['DELETE', '/api/auth/account'], ['POST', '/api/auth/sign-out-everywhere']] as const) {
      expect((await app.inject({ method, url, headers: bearer(stolen) })).statusCode, url).toBe(401)
    }
    expect((await changePassword(stolen, 'after-the-theft', 'thief-choice')).statusCode).toBe(401)
    // A revoked token is no identity on open routes either: an address generated with it is not saved to the account.
    const generated = await app.inject({ method: 'POST', url: '/api/email/generate', headers: bearer(stolen) })
    expect(generated.statusCode).toBe(200)
    const fresh = (await login(victim.email, 'after-the-theft')).json().token as string
    expect((await app.inject({ method: 'GET', url: '/api/auth/addresses', headers: bearer(fresh) })).json().addresses).toEqual([])
  })

  it('refuses a wrong current password (403) and a new one breaking the rules (400), changing nothing', async () => {
    const { email, token } = await signUp(app)
    const wrong = await changePassword(token, 'not-my-pass', 'brand-new-pass')
    expect(wrong.statusCode).toBe(403)
    expect(wrong.json()).toEqual({ error: 'The current password is not correct.', code: 'wrong_password', fields: { currentPassword: 'The current password is not correct.' } })

    const cases: [string, string, Record<string, string>][] = [
      ['secret-pass', '12345', { newPassword: 'Password must be at least 6 characters.' }],
      ['secret-pass', 'x'.repeat(257), { newPassword: 'Password must be at most 256 characters.' }],
      ['secret-pass', 'secret-pass', { newPassword: 'The new password must differ from the current one.' }],
      ['', 'brand-new-pass', { currentPassword: 'Current password is required.' }],
    ]
    for (const [current, next, fields] of cases) {
      const res = await changePassword(token, current, next)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: Object.values(fields)[0], code: 'validation_failed', fields })
    }
    const missing = await app.inject({ method: 'POST', url: '/api/auth/password', headers: bearer(token), payload: { newPassword: 'brand-new-pass' } })
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toMatchObject({ code: 'validation_failed', error: 'CurrentPassword is required.' })

    expect((await me(token)).statusCode).toBe(200)
    expect((await login(email, 'secret-pass')).statusCode).toBe(200)
    expect((await app.inject({ method: 'POST', url: '/api/auth/password', payload: { currentPassword: 'a', newPassword: 'bbbbbb' } })).statusCode).toBe(401)
  })

  it('is rate-limited per IP: 10 answers in 15 minutes, then 429 even for the right password, while another IP is still served', async () => {
    const { email, token } = await signUp(app)
    const from = (remoteAddress: string, currentPassword: string) =>
      app.inject({ method: 'POST', url: '/api/auth/password', headers: bearer(token), payload: { currentPassword, newPassword: 'brand-new-pass' }, remoteAddress })
    const guesses = []
    for (let i = 0; i < 10; i++) guesses.push(await from('203.0.113.70', `guess-${i}`))
    expect(guesses.map((r) => r.statusCode)).toEqual(Array<number>(10).fill(403))
    for (const res of guesses) expect(res.json()).toMatchObject({ code: 'wrong_password' })
    // A stolen token buys no more guesses: the right password is refused too, and changes nothing.
    expectRateLimited(await from('203.0.113.70', 'secret-pass'), 15 * 60)
    expectRateLimited(await from('203.0.113.70', 'secret-pass'), 15 * 60)
    expect((await login(email, 'secret-pass')).statusCode).toBe(200)
    expect((await me(token)).statusCode).toBe(200)

    const elsewhere = await from('198.51.100.70', 'secret-pass')
    expect(elsewhere.statusCode).toBe(200)
    expect((await login(email, 'brand-new-pass')).statusCode).toBe(200)
  })
})

describe('sign out everywhere', () => {
  it('revokes every token of the account, this one included, and leaves other accounts alone', async () => {
    const { email, token: laptop } = await signUp(app)
    const phone = (await login(email, 'secret-pass')).json().token as string
    const neighbour = await signUp(app)
    const res = await app.inject({ method: 'POST', url: '/api/auth/sign-out-everywhere', headers: bearer(laptop) })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: true, message: 'You have been signed out on every device.' })
    for (const token of [laptop, phone]) expect((await me(token)).json()).toEqual({ error: REVOKED, code: 'unauthorized' })
    expect((await me(neighbour.token)).statusCode).toBe(200)
    // Signing in again works and gives a token of the new version.
    expect((await me((await login(email, 'secret-pass')).json().token)).statusCode).toBe(200)
  })
})

describe('deleting the account', () => {
  it('revokes its tokens for good: a later account never takes over its id', async () => {
    const gone = await signUp(app)
    expect((await app.inject({ method: 'DELETE', url: '/api/auth/account', headers: bearer(gone.token), payload: { password: 'secret-pass' } })).statusCode).toBe(200)
    const next = await signUp(app)
    expect((await me(next.token)).statusCode).toBe(200)
    const res = await me(gone.token)
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: 'Please sign in to continue.', code: 'unauthorized' })
  })
})
