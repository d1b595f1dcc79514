import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { insertMessage } from '@tempbox/db'
import { buildTestApp } from './helper.js'
import { bearer, signUp } from './auth-helpers.js'
import { expectRateLimited } from './rate-limit-answer.js'
import type { FastifyRequest, onRequestHookHandler } from 'fastify'
import type { App } from '../src/app.js'
import { loadConfig } from '../src/config.js'

const REVOKED = 'This session was signed out (password changed or signed out everywhere). Please sign in again.'
let app: App

function hs256(claims: object, key: string): string {
  const enc = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url')
  const unsigned = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(claims)}`
  return `${unsigned}.${createHmac('sha256', key).update(unsigned).digest('base64url')}`
}
beforeEach(async () => {
  app = await buildTestApp()
})
afterEach(() => app.close())

describe('register', () => {
  it('creates an account with a normalised email and returns a token and the user', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: '  Alice@Example.COM ', password: 'secret1', username: 'alice' },
    })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.token).toEqual(expect.any(String))
    expect(body.user).toMatchObject({ email: 'alice@example.com', username: 'alice', role: 'user', authenticated: true })
    const row = await app.db.selectFrom('user').selectAll().executeTakeFirstOrThrow()
    expect(row.password_hash).toMatch(/^\$argon2id\$/)
  })

  it('refuses a duplicate email with 409, whatever its case', async () => {
    await signUp(app, 'user', 'bob@example.com')
    const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'BOB@example.com', password: 'secret1' } })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ code: 'email_taken', error: 'An account with this email already exists.' })
  })

  it('answers 400 with a message per field', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'not-an-email', password: '123' } })
    expect(res.statusCode).toBe(400)
    expect(res.json().fields).toEqual({
      email: 'Please enter a valid email address.',
      password: 'Password must be at least 6 characters.',
    })
    const missing = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { password: 'secret1' } })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().fields.email).toBe('Email is required.')
  })

  it('is rate-limited per IP: 10 accounts an hour, then 429 creating nothing, while another IP is still served', async () => {
    const register = (remoteAddress: string, email: string) =>
      app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: 'secret-pass' }, remoteAddress })
    const created = []
    for (let i = 0; i < 10; i++) created.push(await register('203.0.113.80', `many${i}@example.com`))
    expect(created.map((r) => r.statusCode)).toEqual(Array<number>(10).fill(200))
    created.forEach((res, i) => expect(res.json().user.email).toBe(`many${i}@example.com`))
    expectRateLimited(await register('203.0.113.80', 'many10@example.com'), 3600)
    expectRateLimited(await register('203.0.113.80', 'many11@example.com'), 3600)
    const emails = (await app.db.selectFrom('user').select('email').orderBy('id').execute()).map((u) => u.email)
    expect(emails).toEqual(Array.from({ length: 10 }, (_, i) => `many${i}@example.com`))

    const elsewhere = await register('198.51.100.80', 'many10@example.com')
    expect(elsewhere.statusCode).toBe(200)
    expect(elsewhere.json().user.email).toBe('many10@example.com')
  })
})

describe('login', () => {
  it('signs in with the right password, any email case', async () => {
    await signUp(app, 'user', 'carol@example.com')
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'Carol@Example.com', password: 'secret-pass' } })
    expect(res.statusCode).toBe(200)
    expect(res.json().user.email).toBe('carol@example.com')
  })

  it('answers the same 401 for a wrong password and an unknown email', async () => {
    await signUp(app, 'user', 'dave@example.com')
    const wrong = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'dave@example.com', password: 'nope-nope' } })
    const unknown = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@example.com', password: 'nope-nope' } })
    expect(wrong.statusCode).toBe(401)
    expect(unknown.statusCode).toBe(401)
    expect(wrong.json()).toEqual({ error: 'Invalid email or password', code: 'invalid_credentials' })
    expect(unknown.json()).toEqual(wrong.json())
  })

  it('is rate-limited per IP: 20 answers, then 429 with a sentence, while another IP is still served', async () => {
    const login = (remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'x@example.com', password: '' }, remoteAddress })
    const statuses: number[] = []
    for (let i = 0; i < 20; i++) statuses.push((await login('203.0.113.50')).statusCode)
    expect(statuses).toEqual(Array<number>(20).fill(400))
    expectRateLimited(await login('203.0.113.50'), 15 * 60)
    expectRateLimited(await login('203.0.113.50'), 15 * 60)
    expect((await login('198.51.100.50')).statusCode).toBe(400)
  })
})

describe('me and tokens', () => {
  it('returns the current user for a valid token', async () => {
    const { token, email } = await signUp(app)
    const res = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })
    expect(res.statusCode).toBe(200)
    expect(res.json().user).toMatchObject({ email, role: 'user' })
  })

  it('refuses no token, a tampered token, a token signed with another key and an expired token', async () => {
    const { token } = await signUp(app)
    const [head, payload, sig] = token.split('.')
    const forgedPayload = Buffer.from(JSON.stringify({ sub: '1', iat: 1, exp: 9999999999 })).toString('base64url')
    const now = Math.floor(Date.now() / 1000)
    const { sub, ver, sid } = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { sub: string; ver: number; sid: string }
    const otherKey = hs256({ sub, ver, sid, iat: now, exp: now + 600 }, 'x'.repeat(40))
    const expired = hs256({ sub, ver, sid, iat: now - 7200, exp: now - 3600 }, app.config.jwtSecret)
    // Same key, fresh expiry: accepted, so the refusals above are about the signature and the expiry.
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(hs256({ sub, ver, sid, iat: now, exp: now + 600 }, app.config.jwtSecret)) })).statusCode).toBe(200)
    // A long-lived token from before sessions (no `sid`) no longer works, however far off its expiry.
    const sessionless = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(hs256({ sub, ver, iat: now, exp: now + 600 }, app.config.jwtSecret)) })
    expect(sessionless.statusCode).toBe(401)
    expect(sessionless.json()).toEqual({ error: REVOKED, code: 'unauthorized' })
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`
    for (const headers of [{}, bearer(`${head}.${forgedPayload}.${sig}`), bearer(otherKey), bearer(none), { authorization: 'Basic abc' }, bearer('not-a-token')]) {
      const res = await app.inject({ method: 'GET', url: '/api/auth/me', headers })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ error: 'Please sign in to continue.', code: 'unauthorized' })
    }
    const res = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(expired) })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: 'Your session has expired. Please sign in again.', code: 'unauthorized' })
  })

  it('refuses a token of the right key and session whose token version is not the account’s, as signed out', async () => {
    const { token } = await signUp(app)
    const { sub, ver, sid } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string; ver: number; sid: string }
    const now = Math.floor(Date.now() / 1000)
    for (const other of [ver - 1, ver + 1]) {
      const res = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(hs256({ sub, ver: other, sid, iat: now, exp: now + 600 }, app.config.jwtSecret)) })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ error: REVOKED, code: 'unauthorized' })
    }
    // A session of another account does not make the token valid either: the session must be the account's own.
    const other = await signUp(app)
    const otherSid = (JSON.parse(Buffer.from(other.token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid
    const borrowed = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(hs256({ sub, ver, sid: otherSid, iat: now, exp: now + 600 }, app.config.jwtSecret)) })
    expect(borrowed.json()).toEqual({ error: REVOKED, code: 'unauthorized' })
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).statusCode).toBe(200)
  })

  it('treats a guest route’s caller with an invalid or unknown token as a guest: the address is made and saved to no one', async () => {
    await signUp(app)
    const now = Math.floor(Date.now() / 1000)
    const nobody = hs256({ sub: '999999', ver: 0, sid: 'x'.repeat(22), iat: now, exp: now + 600 }, app.config.jwtSecret)
    for (const headers of [bearer('not-a-token'), bearer(nobody), { authorization: 'Basic abc' }]) {
      const res = await app.inject({ method: 'POST', url: '/api/email/generate', headers })
      expect(res.statusCode).toBe(200)
      expect(res.json().email).toMatch(/@/)
    }
    expect(await app.db.selectFrom('inbox').select('user_id').execute()).toEqual([{ user_id: null }, { user_id: null }, { user_id: null }])
  })

  it('keeps a guest route’s own onRequest guard, one hook or a list, beside the optional sign-in', async () => {
    await app.close()
    app = await buildTestApp({}, undefined, (built) => {
      const guard: onRequestHookHandler = (request, reply, done) => {
        if (request.headers['x-refused'] === undefined) return done()
        void reply.code(403).send({ error: 'Refused by the route’s own guard.', code: 'forbidden' })
      }
      const whoAmI = async (request: FastifyRequest) => ({ userId: request.userId })
      built.get('/api/guarded-one', { config: { optionalSignIn: true }, onRequest: guard }, whoAmI)
      built.get('/api/guarded-list', { config: { optionalSignIn: true }, onRequest: [guard] }, whoAmI)
    })
    const { token, email } = await signUp(app)
    const { id: me } = await app.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()
    for (const url of ['/api/guarded-one', '/api/guarded-list']) {
      const refused = await app.inject({ method: 'GET', url, headers: { ...bearer(token), 'x-refused': '1' } })
      expect(refused.statusCode).toBe(403)
      expect(refused.json()).toEqual({ error: 'Refused by the route’s own guard.', code: 'forbidden' })
      expect((await app.inject({ method: 'GET', url, headers: bearer(token) })).json()).toEqual({ userId: me })
      expect((await app.inject({ method: 'GET', url })).json()).toEqual({ userId: null })
    }
  })

  it('signs access tokens that expire after 15 minutes', async () => {
    const { token } = await signUp(app)
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
    expect(claims.exp - claims.iat).toBe(15 * 60)
  })
})

describe('saved addresses and deletion', () => {
  it('saves the address in use when signing in: an unsaved one, or one already its own; never another account’s', async () => {
    const { token } = await signUp(app)
    const anonymous = (await app.inject({ method: 'POST', url: '/api/email/generate' })).json().email as string
    const save = (email: string, auth = bearer(token)) => app.inject({ method: 'POST', url: '/api/auth/addresses', headers: auth, payload: { email } })
    const res = await save(anonymous)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ email: anonymous })
    expect((await save(anonymous)).statusCode).toBe(200)
    const listed = await app.inject({ method: 'GET', url: '/api/auth/addresses', headers: bearer(token) })
    expect(listed.json().addresses.map((a: { email: string }) => a.email)).toEqual([anonymous])

    const other = await signUp(app)
    const taken = await save(anonymous, bearer(other.token))
    expect(taken.statusCode).toBe(409)
    expect(taken.json()).toEqual({ error: 'This address is saved to another account.', code: 'address_taken' })
    expect((await save('nobody-here@tempbox.local')).json()).toMatchObject({ code: 'inbox_not_found' })
    expect((await app.inject({ method: 'POST', url: '/api/auth/addresses', payload: { email: anonymous } })).statusCode).toBe(401)
  })

  it('saves addresses generated while signed in and lists only the unexpired ones', async () => {
    const { token } = await signUp(app)
    const mine = await app.inject({ method: 'POST', url: '/api/email/generate', headers: bearer(token) })
    expect(mine.statusCode).toBe(200)
    await app.inject({ method: 'POST', url: '/api/email/generate' })
    const expired = await app.inject({ method: 'POST', url: '/api/email/generate', headers: bearer(token) })
    await app.db.updateTable('inbox').set({ expires_at: Date.now() - 1 }).where('address', '=', expired.json().email).execute()

    const res = await app.inject({ method: 'GET', url: '/api/auth/addresses', headers: bearer(token) })
    expect(res.statusCode).toBe(200)
    expect(res.json().addresses.map((a: { email: string }) => a.email)).toEqual([mine.json().email])
    expect(Date.parse(res.json().addresses[0].expiresAt)).toBeGreaterThan(Date.now())
    expect((await app.inject({ method: 'GET', url: '/api/auth/addresses' })).statusCode).toBe(401)
  })

  it('deletes the account with its addresses and their mail, and the token stops working', async () => {
    const { token } = await signUp(app)
    const other = await signUp(app)
    const gen = await app.inject({ method: 'POST', url: '/api/email/generate', headers: bearer(token) })
    const address = gen.json().email as string
    const keep = (await app.inject({ method: 'POST', url: '/api/email/generate', headers: bearer(other.token) })).json().email as string
    const inbox = await app.db.selectFrom('inbox').selectAll().where('address', '=', address).executeTakeFirstOrThrow()
    await insertMessage(app.db, [inbox.id], {
      content: { recipients: '[]', headers: '[]', text: 'hello', html: null, raw: Buffer.from('hello') },
      listing: { from_name: 'A', from_address: 'a@example.com', subject: 'hi', sent_at: null, received_at: Date.now(), size: 5 },
    })
    // Warm the inbox cache so deletion must also clear it.
    expect((await app.inject({ method: 'GET', url: `/api/email/${address}` })).statusCode).toBe(200)

    const del = await app.inject({ method: 'DELETE', url: '/api/auth/account', headers: bearer(token), payload: { password: 'secret-pass' } })
    expect(del.statusCode).toBe(200)
    expect(del.json().success).toBe(true)

    expect(await app.db.selectFrom('inbox').select('address').execute()).toEqual([{ address: keep }])
    expect(await app.db.selectFrom('message').selectAll().execute()).toEqual([])
    expect(await app.db.selectFrom('message_content').selectAll().execute()).toEqual([])
    expect((await app.inject({ method: 'GET', url: `/api/email/${address}` })).statusCode).toBe(404)
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).statusCode).toBe(401)
    expect((await app.inject({ method: 'DELETE', url: '/api/auth/account', headers: bearer(token) })).statusCode).toBe(401)
    expect((await app.inject({ method: 'DELETE', url: '/api/auth/account' })).statusCode).toBe(401)
  })
})

describe('secrets', () => {
  it('refuses to start in production without a JWT secret, and keeps generated secrets in the data folder locally', () => {
    expect(() => loadConfig({ APP_ENV: 'production', DATABASE_PATH: ':memory:', WEB_DIST_DIR: '' })).toThrow(/JWT_SECRET must be set/)
    const dir = mkdtempSync(join(tmpdir(), 'tempbox-secrets-'))
    try {
      const a = loadConfig({ DATABASE_PATH: ':memory:', DATA_DIR: dir, WEB_DIST_DIR: '' })
      const b = loadConfig({ DATABASE_PATH: ':memory:', DATA_DIR: dir, WEB_DIST_DIR: '' })
      expect(a.jwtSecret).toHaveLength(64)
      expect(b.jwtSecret).toBe(a.jwtSecret)
      expect(b.adminSetupKey).toBe(a.adminSetupKey)
      expect(a.adminSetupKey).not.toBe(a.jwtSecret)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
