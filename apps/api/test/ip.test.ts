import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { isPrivateIp, parseIp } from '@tempbox/ip'
import { buildTestApp } from './helper.js'

describe('GET /api/ip and /api/ip/{ip}', () => {
  let app: App
  beforeAll(async () => {
    app = await buildTestApp()
    // Loaded once for the whole file; the first lookup would otherwise pay for it.
    await app.geoip.load()
  }, 60_000)
  afterAll(async () => {
    await app?.close()
  })

  const lookup = (ip: string, remoteAddress = '198.51.100.1') => app.inject({ method: 'GET', url: `/api/ip/${encodeURIComponent(ip)}`, remoteAddress })

  it('finds Google DNS (8.8.8.8) in the US, run by Google', async () => {
    const res = await lookup('8.8.8.8')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ ip: '8.8.8.8', version: 4, isPrivate: false, countryCode: 'US', countryName: 'United States', asn: 15169 })
    expect(res.json().organisation).toMatch(/Google/)
  })

  it('finds Cloudflare (1.1.1.1) with its AS number', async () => {
    const info = (await lookup('1.1.1.1')).json()
    expect(info.asn).toBe(13335)
    expect(info.organisation).toMatch(/Cloudflare/)
    expect(info.countryCode).toMatch(/^[A-Z]{2}$/)
  })

  it('looks up IPv6 addresses and writes them in their short form', async () => {
    const info = (await lookup('2001:4860:4860:0:0:0:0:8888')).json()
    expect(info).toMatchObject({ ip: '2001:4860:4860::8888', version: 6, isPrivate: false, asn: 15169 })
    expect(info.organisation).toMatch(/Google/)
    expect(info.countryCode).toMatch(/^[A-Z]{2}$/)
  })

  it.each(['10.0.0.1', '192.168.1.20', '172.16.5.4', '127.0.0.1', '::1', 'fd12:3456::1', 'fe80::1', '::ffff:192.168.0.1'])(
    'answers %s clearly as a private network address',
    async (ip) => {
      const res = await lookup(ip)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ isPrivate: true, countryCode: null, organisation: null })
    },
  )

  it.each(['999.1.1.1', 'hello', '1.2.3', '2001:::1', '8.8.8.8.8', '1.1.1.1/24'])('refuses %j with a clear 400', async (ip) => {
    const res = await lookup(ip)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('invalid_ip')
    expect(res.json().error).toContain('is not an IP address')
  })

  it("answers the caller's own address: loopback in tests is a private network", async () => {
    const res = await app.inject({ method: 'GET', url: '/api/ip' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ ip: '127.0.0.1', isPrivate: true })
    const pub = await app.inject({ method: 'GET', url: '/api/ip', remoteAddress: '8.8.4.4' })
    expect(pub.json()).toMatchObject({ ip: '8.8.4.4', countryCode: 'US', asn: 15169 })
  })

  it('ignores X-Forwarded-For from a client when no proxy is trusted', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/ip', remoteAddress: '8.8.4.4', headers: { 'x-forwarded-for': '1.1.1.1' } })
    expect(res.json().ip).toBe('8.8.4.4')
  })

  it('allows 100 lookups per hour per client, then answers 429', async () => {
    const client = '203.0.113.50'
    for (let i = 0; i < 100; i++) expect((await lookup('10.0.0.1', client)).statusCode).toBe(200)
    const res = await app.inject({ method: 'GET', url: '/api/ip', remoteAddress: client })
    expect(res.statusCode).toBe(429)
    expect(res.json().code).toBe('rate_limited')
    expect((await lookup('10.0.0.1', '203.0.113.51')).statusCode).toBe(200)
  })
})

describe('behind a trusted proxy', () => {
  it('takes the client address from X-Forwarded-For set by the trusted proxy', async () => {
    const app = await buildTestApp({ TRUST_PROXY: '127.0.0.1' })
    try {
      const res = await app.inject({ method: 'GET', url: '/api/ip', headers: { 'x-forwarded-for': '10.9.8.7' } })
      expect(res.json()).toMatchObject({ ip: '10.9.8.7', isPrivate: true })
    } finally {
      await app.close()
    }
  })
})

describe('parseIp / isPrivateIp', () => {
  it('normalises addresses', () => {
    expect(parseIp(' 8.8.8.8 ')?.ip).toBe('8.8.8.8')
    expect(parseIp('::ffff:8.8.8.8')).toMatchObject({ ip: '8.8.8.8', version: 4 })
    expect(parseIp('[2001:DB8::1]')?.ip).toBe('2001:db8::1')
    expect(parseIp('2001:4860:4860:0000:0000:0000:0000:8888')?.ip).toBe('2001:4860:4860::8888')
    expect(parseIp('1:0:0:2:0:0:0:3')?.ip).toBe('1:0:0:2::3')
    expect(parseIp('1.2.3.4')?.value).toBe(0x01020304n)
    expect(parseIp('::1.2.3.4')?.value).toBe(0x01020304n)
    expect(parseIp('nope')).toBeNull()
  })

  it('knows the non-public ranges', () => {
    for (const ip of ['10.1.1.1', '100.64.0.1', '169.254.1.1', '0.0.0.0', '::', 'fc00::1']) expect(isPrivateIp(parseIp(ip)!)).toBe(true)
    for (const ip of ['8.8.8.8', '172.32.0.1', '2606:4700::1111']) expect(isPrivateIp(parseIp(ip)!)).toBe(false)
  })
})

describe('privacy', () => {
  it('logs nothing about IP lookups, not even the request line', async () => {
    let log = ''
    const config = loadConfig({ DATABASE_PATH: ':memory:', LOG_LEVEL: 'info', LOG_REQUESTS: 'true', WEB_DIST_DIR: '' })
    const app = await buildApp(config, undefined, { logStream: { write: (line) => void (log += line) } })
    await app.inject({ method: 'GET', url: '/api/ip/10.20.30.40', remoteAddress: '192.168.77.88' })
    await app.inject({ method: 'GET', url: '/api/ip', remoteAddress: '192.168.77.88' })
    await app.inject({ method: 'GET', url: '/api/health', remoteAddress: '192.168.77.88' })
    await app.close()
    expect(log).toContain('/api/health')
    expect(log).not.toContain('10.20.30.40')
    expect(log).not.toContain('/api/ip')
  })
})
