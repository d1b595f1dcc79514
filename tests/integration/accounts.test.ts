import { existsSync, readFileSync } from 'node:fs'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProcess, startStack, waitFor, type Stack } from '../support/stack.js'

let stack: Stack
beforeAll(async () => {
  stack = await startStack()
})
afterAll(async () => {
  await stack?.stop()
})

async function call<T = Record<string, unknown>>(method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  })
  const text = await res.text()
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T }
}

describe('accounts over the real processes', () => {
  it('keeps the mail of a saved address until the account is deleted, then removes both', async () => {
    const { body: auth } = await call<{ token: string }>('POST', '/api/auth/register', { email: 'saver@example.com', password: 'secret-pass' })
    const { body: gen } = await call<{ email: string }>('POST', '/api/email/generate', undefined, auth.token)
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
    await transport.sendMail({ from: 'a@example.com', to: gen.email, subject: 'Kept mail', text: 'hello' })
    await waitFor(async () => ((await call<{ messages: unknown[] }>('GET', `/api/email/${gen.email}`)).body.messages?.length ?? 0) === 1)

    const saved = await call<{ addresses: { email: string }[] }>('GET', '/api/auth/addresses', undefined, auth.token)
    expect(saved.body.addresses.map((a) => a.email)).toEqual([gen.email])

    expect((await call('DELETE', '/api/auth/account', { password: 'secret-pass' }, auth.token)).status).toBe(200)
    expect((await call('GET', `/api/email/${gen.email}`)).status).toBe(404)
    expect((await call('GET', '/api/auth/me', undefined, auth.token)).status).toBe(401)
    expect((await call('POST', '/api/auth/login', { email: 'saver@example.com', password: 'secret-pass' })).status).toBe(401)
  })

  it('stores page views without any IP address', async () => {
    expect((await call('POST', '/api/analytics/pageview', { path: '/about' })).status).toBe(204)
    for (const file of [stack.dbPath, `${stack.dbPath}-wal`]) {
      if (existsSync(file)) expect(readFileSync(file).includes('127.0.0.1')).toBe(false)
    }
  })

  it('keeps tokens and the setup key valid across a restart (secrets kept in the data folder)', async () => {
    const { body: auth } = await call<{ token: string }>('POST', '/api/auth/register', { email: 'stay@example.com', password: 'secret-pass' })
    const before = await call<{ open: boolean; secretKey: string }>('GET', '/api/auth/setup')
    expect(before.body.open).toBe(true)

    await stack.api.stop()
    stack.api = startProcess('apps/api/src/server.ts', {
      DATABASE_PATH: stack.dbPath,
      DATA_DIR: stack.dataDir,
      MAIL_DOMAINS: stack.mailDomain,
      HOST: '127.0.0.1',
      PORT: String(stack.httpPort),
      METRICS_PORT: String(stack.metricsPort),
      WEB_DIST_DIR: '',
    })
    await waitFor(async () => (await fetch(`${stack.apiUrl}/api/health`).catch(() => null))?.ok === true, 30_000, 'api restart')

    expect((await call<{ user: { email: string } }>('GET', '/api/auth/me', undefined, auth.token)).body.user.email).toBe('stay@example.com')
    const after = await call<{ open: boolean; secretKey: string }>('GET', '/api/auth/setup')
    expect(after.body.secretKey).toBe(before.body.secretKey)
    const promoted = await call('POST', '/api/auth/promote-owner', { email: 'stay@example.com', secretKey: after.body.secretKey }, auth.token)
    expect(promoted.status).toBe(200)
    expect((await call('GET', '/api/auth/setup')).body).toEqual({ open: false })
    expect((await call('GET', '/api/analytics/realtime', undefined, auth.token)).status).toBe(200)
  })
})
