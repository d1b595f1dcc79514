import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { twoNodes } from './two-nodes.js'

/** Two API nodes on one PostgreSQL (project `postgres` only): sign-in throttling and sessions hold across them. */
const apps: App[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})

const WRONG = { error: 'Invalid email or password', code: 'invalid_credentials' }
let client = 0
const login = (node: App, email: string, password: string) =>
  node.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: `198.51.100.${++client}` })

describe('two API nodes on one PostgreSQL share', () => {
  it('the failed sign-ins of an account: 10 spread over both nodes refuse the right password on either', async () => {
    const [a, b] = await twoNodes('login-lockout', apps)
    expect((await a.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'shared@example.com', password: 'secret-pass' } })).statusCode).toBe(200)
    for (let i = 0; i < 10; i++) expect((await login(i % 2 ? a : b, 'shared@example.com', `guess-${i}`)).json()).toEqual(WRONG)
    for (const node of [a, b]) {
      const res = await login(node, 'shared@example.com', 'secret-pass')
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual(WRONG)
    }
  })

  it('sessions: signed in on one node, renewed and signed out on the other', async () => {
    const [a, b] = await twoNodes('sessions', apps)
    const reg = await a.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'roam@example.com', password: 'secret-pass' } })
    const cookie = reg.cookies.find((c) => c.name === 'tempbox_refresh')!.value
    const renewed = await b.inject({ method: 'POST', url: '/api/auth/refresh', headers: { 'x-tempbox-refresh': '1' }, cookies: { tempbox_refresh: cookie } })
    expect(renewed.statusCode).toBe(200)
    const { token } = renewed.json() as { token: string }
    const next = renewed.cookies.find((c) => c.name === 'tempbox_refresh')!.value
    expect((await a.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200)
    expect((await a.inject({ method: 'POST', url: '/api/auth/sign-out', cookies: { tempbox_refresh: next } })).statusCode).toBe(200)
    expect((await b.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401)
  })
})
