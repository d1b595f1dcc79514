import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp } from './helper.js'
import { bearer, signUp } from './auth-helpers.js'
import { expectRateLimited } from './rate-limit-answer.js'
import type { App } from '../src/app.js'
import { setupKeyNotice } from '../src/services/accounts/setup-service.js'

const KEY = 'test-setup-key-0123456789'
let app: App
afterEach(() => app.close())

async function start(env: Record<string, string> = {}) {
  app = await buildTestApp({ ADMIN_SETUP_KEY: KEY, ...env })
}

const promote = (token: string | null, email: string, secretKey = KEY) =>
  app.inject({ method: 'POST', url: '/api/auth/promote-owner', headers: token ? bearer(token) : {}, payload: { email, secretKey } })
const setupStatus = async () => (await app.inject({ method: 'GET', url: '/api/auth/setup' })).json()
const changeRole = (token: string, email: string, role: string) =>
  app.inject({ method: 'POST', url: '/api/auth/role', headers: bearer(token), payload: { email, role } })

describe('owner setup', () => {
  it('shows the key while open, promotes the signed-in account once, then closes for good', async () => {
    await start()
    expect(await setupStatus()).toEqual({ open: true, secretKey: KEY })

    const { email, token } = await signUp(app)
    const promoted = await promote(token, email.toUpperCase())
    expect(promoted.statusCode).toBe(200)
    expect(promoted.json()).toMatchObject({ success: true, message: 'You have been promoted to Owner. Now you can access Analytics.', user: { email, role: 'owner' } })

    // The role is read per request, so the existing token now carries owner rights.
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).json().user.role).toBe('owner')
    expect((await app.inject({ method: 'GET', url: '/api/analytics/realtime', headers: bearer(token) })).statusCode).toBe(200)

    expect(await setupStatus()).toEqual({ open: false })
    const other = await signUp(app)
    const again = await promote(other.token, other.email)
    expect(again.statusCode).toBe(403)
    expect(again.json()).toEqual({ error: 'Setup is complete: this site already has an owner.', code: 'setup_closed' })
  })

  it('stays closed after the only owner deletes their account: a newcomer sees no key and cannot promote themselves', async () => {
    await start()
    const owner = await signUp(app)
    expect((await promote(owner.token, owner.email)).statusCode).toBe(200)
    expect((await app.inject({ method: 'DELETE', url: '/api/auth/account', headers: bearer(owner.token), payload: { password: 'secret-pass' } })).statusCode).toBe(200)

    expect(await setupStatus()).toEqual({ open: false })
    const attacker = await signUp(app)
    const res = await promote(attacker.token, attacker.email)
    expect(res.statusCode).toBe(403)
    expect(res.json().code).toBe('setup_closed')
    expect((await app.inject({ method: 'GET', url: '/api/analytics/contacts', headers: bearer(attacker.token) })).statusCode).toBe(403)
  })

  it('promotes only the account that is signed in: no token is 401, another account’s email is 403', async () => {
    await start()
    const victim = await signUp(app)
    const attacker = await signUp(app)
    const anonymous = await promote(null, victim.email)
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.json()).toEqual({ error: 'Please sign in to continue.', code: 'unauthorized' })
    const other = await promote(attacker.token, victim.email)
    expect(other.statusCode).toBe(403)
    expect(other.json()).toMatchObject({ code: 'forbidden', error: `You can only promote the account you are signed in with (${attacker.email}).` })
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(victim.token) })).json().user.role).toBe('user')
    expect((await setupStatus()).open).toBe(true)
  })

  it('refuses a wrong key with 403 and empty fields with 400, without promoting anyone', async () => {
    await start()
    const { email, token } = await signUp(app)
    const wrong = await promote(token, email, 'nope')
    expect(wrong.statusCode).toBe(403)
    expect(wrong.json()).toEqual({ error: 'The secret key is not correct.', code: 'invalid_setup_key' })
    const empty = await promote(token, '', '')
    expect(empty.statusCode).toBe(400)
    expect(empty.json().error).toBe('Please fill all fields')
    expect((await setupStatus()).open).toBe(true)
  })

  it('lets exactly one of two promotions at the same moment win', async () => {
    await start()
    const a = await signUp(app)
    const b = await signUp(app)
    const results = await Promise.all([promote(a.token, a.email), promote(b.token, b.email)])
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 403])
    expect(results.find((r) => r.statusCode === 403)!.json().code).toBe('setup_closed')
    const roles = await Promise.all([a, b].map(async (p) => (await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(p.token) })).json().user.role))
    expect(roles.sort()).toEqual(['owner', 'user'])
  })

  it('in production hides the key on the page and says it is in the server log, unless SHOW_SETUP_KEY=true', async () => {
    const production = { APP_ENV: 'production', JWT_SECRET: 'x'.repeat(40) }
    await start(production)
    expect(await setupStatus()).toEqual({ open: true, keyInLog: true })
    expect(await setupKeyNotice(app.db, app.config)).toBe(`[setup] Owner setup is open. Sign in at /admin-setup and enter this setup key: ${KEY}`)
    // The key still works: the operator reads it from the log.
    const { email, token } = await signUp(app)
    expect((await promote(token, email)).statusCode).toBe(200)
    expect(await setupKeyNotice(app.db, app.config)).toBeNull()
    await app.close()

    await start({ ...production, SHOW_SETUP_KEY: 'true' })
    expect(await setupStatus()).toEqual({ open: true, secretKey: KEY })
    // Shown only to this machine, so the log still has it for everyone else.
    expect(await setupKeyNotice(app.db, app.config)).toContain(KEY)
  })

  it('shows the key to no one but a browser on the server’s own machine (HOST=0.0.0.0 hands out nothing)', async () => {
    await start()
    const lan = await app.inject({ method: 'GET', url: '/api/auth/setup', remoteAddress: '192.0.2.44' })
    expect(lan.json()).toEqual({ open: true, keyInLog: true })
    expect(await setupKeyNotice(app.db, app.config)).toBe(`[setup] Owner setup is open. Sign in at /admin-setup and enter this setup key: ${KEY}`)
    for (const local of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await app.inject({ method: 'GET', url: '/api/auth/setup', remoteAddress: local })).json()).toEqual({ open: true, secretKey: KEY })
    }
  })

  it('over HTTP: a forwarded 127.0.0.1 gets nothing, from a client or through a proxy the api was not told to trust', async () => {
    await start()
    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    const status = async (headers: Record<string, string> = {}) => (await fetch(`${base}/api/auth/setup`, { headers })).json()
    expect(await status()).toEqual({ open: true, secretKey: KEY })
    // An undeclared proxy on this machine passing a visitor on: the visitor is not local.
    expect(await status({ 'x-forwarded-for': '198.51.100.7' })).toEqual({ open: true, keyInLog: true })
    expect(await status({ 'x-real-ip': '198.51.100.7' })).toEqual({ open: true, keyInLog: true })
    expect(await status({ 'x-forwarded-for': '127.0.0.1' })).toEqual({ open: true, keyInLog: true })
    await app.close()

    // Behind a trusted proxy the client is the one it forwards; a 127.0.0.1 the client wrote itself stays the client's.
    await start({ TRUST_PROXY: '1' })
    const proxied = await app.listen({ host: '127.0.0.1', port: 0 })
    const through = async (forwarded: string) => (await fetch(`${proxied}/api/auth/setup`, { headers: { 'x-forwarded-for': forwarded } })).json()
    expect(await through('198.51.100.7')).toEqual({ open: true, keyInLog: true })
    expect(await through('127.0.0.1, 198.51.100.7')).toEqual({ open: true, keyInLog: true })
    expect(await through('127.0.0.1')).toEqual({ open: true, secretKey: KEY })
  })

  it('is rate-limited per IP: 10 wrong keys, then 429 even for the right one, while another IP is still served', async () => {
    await start()
    const { email, token } = await signUp(app)
    const guess = (secretKey: string, remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/auth/promote-owner', headers: bearer(token), payload: { email, secretKey }, remoteAddress })
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) statuses.push((await guess('guess' + i, '203.0.113.70')).statusCode)
    const refused = await guess(KEY, '203.0.113.70')
    statuses.push(refused.statusCode)
    expect(statuses).toEqual([...Array<number>(10).fill(403), 429])
    expectRateLimited(refused, 15 * 60)
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).json().user.role).toBe('user')
    expect((await guess(KEY, '198.51.100.70')).statusCode).toBe(200)
  })
})

describe('role changes', () => {
  it('lets an owner make another owner or admin, and take the role back', async () => {
    await start()
    const owner = await signUp(app, 'owner')
    const other = await signUp(app)
    const res = await changeRole(owner.token, other.email.toUpperCase(), 'owner')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ success: true, message: `${other.email} is now owner.`, user: { email: other.email, role: 'owner' } })
    expect((await app.inject({ method: 'GET', url: '/api/analytics/realtime', headers: bearer(other.token) })).statusCode).toBe(200)

    // The new owner may now demote the first one: two owners, so one can go.
    expect((await changeRole(other.token, owner.email, 'admin')).json().user.role).toBe('admin')
    expect((await changeRole(other.token, owner.email, 'user')).json().user.role).toBe('user')
  })

  it('refuses admins, users and guests with 403/401, whatever role they ask for', async () => {
    await start()
    await signUp(app, 'owner')
    const admin = await signUp(app, 'admin')
    const user = await signUp(app)
    for (const caller of [admin, user]) {
      for (const target of [admin.email, user.email]) {
        const res = await changeRole(caller.token, target, 'owner')
        expect(res.statusCode).toBe(403)
        expect(res.json()).toEqual({ error: 'Only an owner can change roles.', code: 'forbidden' })
      }
    }
    const guest = await app.inject({ method: 'POST', url: '/api/auth/role', payload: { email: user.email, role: 'owner' } })
    expect(guest.statusCode).toBe(401)
    const roles = await Promise.all([admin, user].map(async (p) => (await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(p.token) })).json().user.role))
    expect(roles).toEqual(['admin', 'user'])
  })

  it('keeps at least one owner, and answers unknown roles and accounts clearly', async () => {
    await start()
    const owner = await signUp(app, 'owner')
    const last = await changeRole(owner.token, owner.email, 'user')
    expect(last.statusCode).toBe(409)
    expect(last.json()).toEqual({ error: 'This is the only owner: make another account owner first, or setup could never make one again.', code: 'last_owner' })
    const badRole = await changeRole(owner.token, owner.email, 'superuser')
    expect(badRole.statusCode).toBe(400)
    expect(badRole.json()).toMatchObject({ code: 'validation_failed', error: 'Role must be one of: user, admin, owner.' })
    const ghost = await changeRole(owner.token, 'ghost@example.com', 'admin')
    expect(ghost.statusCode).toBe(404)
    expect(ghost.json()).toEqual({ error: 'No account uses this email.', code: 'user_not_found' })
  })
})
