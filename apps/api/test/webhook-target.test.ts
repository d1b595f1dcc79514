import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { isPublicAddress, parseWebhookUrl, resolveTarget } from '../src/services/webhooks/webhook-target.js'
import { buildTestApp } from './helper.js'
import { expectRateLimited } from './rate-limit-answer.js'

describe('which addresses a webhook may reach', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.100.100.200',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::5', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
    // Each let through before: NAT64, local-use NAT64, 6to4 and Teredo carrying private IPv4, site-local, the 6to4 relay.
    '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::808:808', '2002:7f00:1::', '2002:a00:1::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'fec0::1', '192.88.99.1', '::ffff:7f00:1', '192.31.196.1', '192.175.48.1', '2620:4f:8000::1', '3fff::1', '5f00::1', '4000::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::5db8:d822', '2002:5db8:d822::1'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })

  it('refuses a host name that resolves to loopback, and allows it when private targets are allowed', async () => {
    const url = parseWebhookUrl('https://localhost:8443/hook', { allowHttp: false, allowPrivate: false })
    await expect(resolveTarget(url, { allowHttp: false, allowPrivate: false })).rejects.toThrow(/non-public address/)
    const target = await resolveTarget(url, { allowHttp: false, allowPrivate: true })
    expect(isPublicAddress(target.address)).toBe(false)
  })

  it('refuses a name when any one of its addresses is non-public, saying which and why', async () => {
    const url = parseWebhookUrl('https://hooks.example/in', { allowHttp: false, allowPrivate: false })
    const lookup = async () => [{ address: '93.184.216.34', family: 4 }, { address: '64:ff9b::a9fe:a9fe', family: 6 }]
    await expect(resolveTarget(url, { allowHttp: false, allowPrivate: false }, lookup)).rejects.toThrow(
      '"hooks.example" points to a non-public address: 64:ff9b::a9fe:a9fe is NAT64 for 169.254.169.254: link-local, where cloud metadata services answer (169.254.0.0/16).',
    )
    expect(await resolveTarget(url, { allowHttp: false, allowPrivate: true }, lookup)).toEqual({ address: '93.184.216.34', family: 4 })
  })
})

describe('PUT /api/email/{address}/webhook over HTTP to an IPv6 literal carrying a private IPv4 address', () => {
  let app: App
  afterEach(async () => {
    await app?.close()
  })

  it.each([
    ['http://[64:ff9b::7f00:1]/', '"64:ff9b::7f00:1" points to a non-public address: 64:ff9b::7f00:1 is NAT64 for 127.0.0.1: loopback (127.0.0.0/8). Webhooks may only reach public addresses on this server.'],
    ['http://[2002:7f00:1::]/', '"2002:7f00:1::" points to a non-public address: 2002:7f00:1:: is 6to4 for 127.0.0.1: loopback (127.0.0.0/8). Webhooks may only reach public addresses on this server.'],
    ['http://[fec0::1]:8080/hook', '"fec0::1" points to a non-public address: fec0::1 is deprecated site-local (fec0::/10). Webhooks may only reach public addresses on this server.'],
  ])('refuses %s with a sentence saying why, and sets nothing', async (target, sentence) => {
    app = await buildTestApp({ WEBHOOK_ALLOW_HTTP: 'true' })
    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    const { email } = (await (await fetch(`${base}/api/email/generate`, { method: 'POST' })).json()) as { email: string }
    const res = await fetch(`${base}/api/email/${email}/webhook`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: target }),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: sentence, code: 'webhook_target_refused', fields: { url: sentence } })
    expect((await fetch(`${base}/api/email/${email}/webhook`)).status).toBe(404)
  })

  it('still sets such a target when WEBHOOK_ALLOW_PRIVATE=true (a CI receiver on the same machine)', async () => {
    app = await buildTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' })
    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    const { email } = (await (await fetch(`${base}/api/email/generate`, { method: 'POST' })).json()) as { email: string }
    const res = await fetch(`${base}/api/email/${email}/webhook`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }),
    })
    expect(res.status).toBe(201)
  })
})

describe('PUT /api/email/{address}/webhook with the default policy (https only, public targets only)', () => {
  let app: App
  afterEach(async () => {
    await app?.close()
  })

  async function addressOf(app: App): Promise<string> {
    const res = await app.inject({ method: 'POST', url: '/api/email/generate' })
    return res.json<{ email: string }>().email
  }

  it.each([
    ['https://127.0.0.1/hook', 'webhook_target_refused'],
    ['https://localhost/hook', 'webhook_target_refused'],
    ['https://169.254.169.254/latest/meta-data', 'webhook_target_refused'],
    ['https://[::1]:8443/hook', 'webhook_target_refused'],
    ['https://10.0.0.8/hook', 'webhook_target_refused'],
    ['http://example.com/hook', 'invalid_webhook_url'],
    ['https://user:pass@example.com/hook', 'invalid_webhook_url'],
    ['not a url', 'invalid_webhook_url'],
  ])('refuses %s with %s', async (url, code) => {
    app = await buildTestApp()
    const address = await addressOf(app)
    const res = await app.inject({ method: 'PUT', url: `/api/email/${address}/webhook`, payload: { url } })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code, error: expect.any(String) })
    expect((await app.inject({ method: 'GET', url: `/api/email/${address}/webhook` })).statusCode).toBe(404)
  })

  it('sets, shows (without the secret), replaces and removes a webhook when private targets are allowed', async () => {
    app = await buildTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' })
    const address = await addressOf(app)
    const first = await app.inject({ method: 'PUT', url: `/api/email/${address}/webhook`, payload: { url: 'https://127.0.0.1:9/a' } })
    expect(first.statusCode).toBe(201)
    const { secret } = first.json<{ secret: string }>()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    const shown = await app.inject({ method: 'GET', url: `/api/email/${address}/webhook` })
    expect(shown.json()).toEqual({ url: 'https://127.0.0.1:9/a', createdAt: expect.any(String), pendingDeliveries: 0 })
    expect(shown.body).not.toContain(secret)

    const second = await app.inject({ method: 'PUT', url: `/api/email/${address}/webhook`, payload: { url: 'https://127.0.0.1:9/b' } })
    expect(second.statusCode).toBe(200)
    expect(second.json<{ secret: string }>().secret).not.toBe(secret)
    expect((await app.inject({ method: 'GET', url: `/api/email/${address}/webhook/deliveries` })).json()).toEqual({ deliveries: [] })

    expect((await app.inject({ method: 'DELETE', url: `/api/email/${address}/webhook` })).statusCode).toBe(204)
    const gone = await app.inject({ method: 'DELETE', url: `/api/email/${address}/webhook` })
    expect(gone.statusCode).toBe(404)
    expect(gone.json()).toMatchObject({ code: 'webhook_not_found' })
  })

  it('is rate-limited per IP: 30 sets a minute, then 429 keeping the last webhook, while another IP is still served', async () => {
    app = await buildTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' })
    const address = await addressOf(app)
    const set = (remoteAddress: string, url: string) => app.inject({ method: 'PUT', url: `/api/email/${address}/webhook`, payload: { url }, remoteAddress })
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) statuses.push((await set('203.0.113.100', `https://127.0.0.1:9/hook${i}`)).statusCode)
    expect(statuses).toEqual([201, ...Array<number>(29).fill(200)])
    expectRateLimited(await set('203.0.113.100', 'https://127.0.0.1:9/refused'), 60)
    expectRateLimited(await set('203.0.113.100', 'https://127.0.0.1:9/refused'), 60)
    const shown = async () => (await app.inject({ method: 'GET', url: `/api/email/${address}/webhook` })).json<{ url: string }>().url
    expect(await shown()).toBe('https://127.0.0.1:9/hook29')

    expect((await set('198.51.100.100', 'https://127.0.0.1:9/elsewhere')).statusCode).toBe(200)
    expect(await shown()).toBe('https://127.0.0.1:9/elsewhere')
  })

  it('answers 404 for an unknown address', async () => {
    app = await buildTestApp()
    const res = await app.inject({ method: 'PUT', url: '/api/email/nobody@tempbox.local/webhook', payload: { url: 'https://example.com/' } })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 'inbox_not_found' })
  })
})
