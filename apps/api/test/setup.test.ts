import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildTestApp } from './helper.js'
import { bearer, signUp } from './auth-helpers.js'
import type { App } from '../src/app.js'

const KEY = 'test-setup-key-0123456789'
let app: App
beforeEach(async () => {
  app = await buildTestApp({ ADMIN_SETUP_KEY: KEY })
})
afterEach(() => app.close())

describe('owner setup', () => {
  it('shows the key while no owner exists, promotes once, then closes for good', async () => {
    const open = await app.inject({ method: 'GET', url: '/api/auth/setup' })
    expect(open.json()).toEqual({ open: true, secretKey: KEY })

    const { email, token } = await signUp(app)
    const promoted = await app.inject({ method: 'POST', url: '/api/auth/promote-owner', payload: { email: email.toUpperCase(), secretKey: KEY } })
    expect(promoted.statusCode).toBe(200)
    expect(promoted.json()).toMatchObject({ success: true, message: 'You have been promoted to Owner. Now you can access Analytics.', user: { email, role: 'owner' } })

    // The role is read per request, so the existing token now carries owner rights.
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).json().user.role).toBe('owner')
    expect((await app.inject({ method: 'GET', url: '/api/analytics/realtime', headers: bearer(token) })).statusCode).toBe(200)

    expect((await app.inject({ method: 'GET', url: '/api/auth/setup' })).json()).toEqual({ open: false })
    const other = await signUp(app)
    const again = await app.inject({ method: 'POST', url: '/api/auth/promote-owner', payload: { email: other.email, secretKey: KEY } })
    expect(again.statusCode).toBe(403)
    expect(again.json()).toEqual({ error: 'Setup is complete: this site already has an owner.', code: 'setup_closed' })
  })

  it('refuses a wrong key with 403 and an unknown email with 404, without promoting anyone', async () => {
    const { email } = await signUp(app)
    const wrong = await app.inject({ method: 'POST', url: '/api/auth/promote-owner', payload: { email, secretKey: 'nope' } })
    expect(wrong.statusCode).toBe(403)
    expect(wrong.json().code).toBe('invalid_setup_key')
    const unknown = await app.inject({ method: 'POST', url: '/api/auth/promote-owner', payload: { email: 'ghost@example.com', secretKey: KEY } })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().code).toBe('user_not_found')
    const empty = await app.inject({ method: 'POST', url: '/api/auth/promote-owner', payload: { email: '', secretKey: '' } })
    expect(empty.statusCode).toBe(400)
    expect(empty.json().error).toBe('Please fill all fields')
    expect((await app.inject({ method: 'GET', url: '/api/auth/setup' })).json().open).toBe(true)
  })

  it('is rate-limited per IP', async () => {
    let last = 0
    for (let i = 0; i < 11; i++) {
      last = (await app.inject({ method: 'POST', url: '/api/auth/promote-owner', payload: { email: 'a@example.com', secretKey: 'guess' + i } })).statusCode
    }
    expect(last).toBe(429)
  })
})
