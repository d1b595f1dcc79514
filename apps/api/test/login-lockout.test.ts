import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp } from './helper.js'
import type { App } from '../src/app.js'

/** Over real HTTP, each guess from its own client address (X-Forwarded-For behind a trusted proxy), so the per-IP limit never steps in. */
let app: App
let base: string
afterEach(() => app.close())

async function start(env: Record<string, string> = {}): Promise<void> {
  app = await buildTestApp({ TRUST_PROXY: '1', LOGIN_FAILURES_PER_ACCOUNT: '3', ...env })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}

let client = 0
async function post(path: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${++client % 250}` }
  if (token) headers.authorization = `Bearer ${token}`
  const res = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

const WRONG = { status: 401, body: { error: 'Invalid email or password', code: 'invalid_credentials' } }

describe('failed sign-ins per account', () => {
  it('past LOGIN_FAILURES_PER_ACCOUNT failures refuses even the right password, answered exactly like a wrong one', async () => {
    await start()
    expect((await post('/api/auth/register', { email: 'victim@example.com', password: 'secret-pass' })).status).toBe(200)
    for (let i = 0; i < 3; i++) expect(await post('/api/auth/login', { email: 'victim@example.com', password: `guess-${i}` })).toEqual(WRONG)
    // From yet another address, the right password: refused the same way, so a guesser learns nothing from it.
    expect(await post('/api/auth/login', { email: 'Victim@Example.com', password: 'secret-pass' })).toEqual(WRONG)
    // Another account is not touched.
    expect((await post('/api/auth/register', { email: 'neighbour@example.com', password: 'secret-pass' })).status).toBe(200)
    expect((await post('/api/auth/login', { email: 'neighbour@example.com', password: 'secret-pass' })).status).toBe(200)
  })

  it('throttles an unknown account exactly as an existing one: the answers cannot tell them apart', async () => {
    await start()
    expect((await post('/api/auth/register', { email: 'real@example.com', password: 'secret-pass' })).status).toBe(200)
    const answers = async (email: string) => {
      const seen = []
      for (let i = 0; i < 5; i++) seen.push(await post('/api/auth/login', { email, password: `guess-${i}` }))
      return seen
    }
    const real = await answers('real@example.com')
    const unknown = await answers('nobody@example.com')
    expect(real).toEqual(Array(5).fill(WRONG))
    expect(unknown).toEqual(real)
  })

  it('counts only failures: signing in right, again and again, is never throttled', async () => {
    await start()
    expect((await post('/api/auth/register', { email: 'often@example.com', password: 'secret-pass' })).status).toBe(200)
    for (let i = 0; i < 5; i++) expect((await post('/api/auth/login', { email: 'often@example.com', password: 'secret-pass' })).status).toBe(200)
  })
})

describe('deleting the account', () => {
  it('asks for the password: none (400) or a wrong one (403) deletes nothing; the right one deletes', async () => {
    await start()
    const { token } = (await post('/api/auth/register', { email: 'leaving@example.com', password: 'secret-pass' })).body as { token: string }
    const del = async (body?: unknown) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` }
      if (body !== undefined) headers['content-type'] = 'application/json'
      const res = await fetch(`${base}/api/auth/account`, { method: 'DELETE', headers, body: body === undefined ? undefined : JSON.stringify(body) })
      return { status: res.status, body: (await res.json()) as Record<string, unknown> }
    }
    expect((await del()).status).toBe(400)
    expect(await del({ password: '' })).toMatchObject({ status: 400, body: { error: 'Please enter your password to delete the account.', code: 'validation_failed' } })
    expect(await del({ password: 'not-it' })).toEqual({
      status: 403,
      body: { error: 'The password is not correct: the account was not deleted.', code: 'wrong_password', fields: { password: 'The password is not correct.' } },
    })
    expect((await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200)
    expect(await del({ password: 'secret-pass' })).toEqual({ status: 200, body: { success: true, message: 'Your account and all associated data has been deleted.' } })
    expect((await post('/api/auth/login', { email: 'leaving@example.com', password: 'secret-pass' })).status).toBe(401)
  })
})
