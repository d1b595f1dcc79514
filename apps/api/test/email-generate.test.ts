import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { generate } from './email-fixtures.js'
import { randomLocalPart } from '../src/services/inboxes/address.js'

let app: App
afterEach(async () => {
  await app?.close()
})

const post = (payload?: unknown, ip = '198.51.100.1') => app.inject({ method: 'POST', url: '/api/email/generate', payload: payload as object, remoteAddress: ip })

describe('POST /api/email/generate', () => {
  it('creates a random readable address on the default domain that expires in 24 hours', async () => {
    app = await buildTestApp({ MAIL_DOMAINS: 'tempbox.test,other.test' })
    const res = await post()
    expect(res.statusCode).toBe(200)
    const body = res.json() as { email: string; expiresAt: string }
    expect(body.email).toMatch(/^[a-km-np-z2-9]{12}@tempbox\.test$/)
    const ttl = Date.parse(body.expiresAt) - Date.now()
    expect(ttl).toBeGreaterThan(23.9 * 3_600_000)
    expect(ttl).toBeLessThanOrEqual(24 * 3_600_000)
  })

  it('never uses look-alike characters and gives unique names', () => {
    const names = new Set(Array.from({ length: 2000 }, () => randomLocalPart()))
    expect(names.size).toBe(2000)
    for (const n of names) expect(n).not.toMatch(/[01lo]/)
  })

  it('accepts a chosen name and domain, lower-cased', async () => {
    app = await buildTestApp({ MAIL_DOMAINS: 'tempbox.test,other.test' })
    const res = await post({ localPart: 'My.Tests+ci', domain: 'other.test' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ email: 'my.tests+ci@other.test' })
  })

  it('answers 409 when the chosen name is taken', async () => {
    app = await buildTestApp()
    await post({ localPart: 'alice-k7' })
    const res = await post({ localPart: 'ALICE-K7' }, '198.51.100.2')
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ code: 'address_taken', error: expect.stringContaining('already taken') })
  })

  it('refuses reserved names, malformed names and unknown domains', async () => {
    app = await buildTestApp()
    for (const name of ['postmaster', 'abuse', 'admin', 'root', 'hostmaster', 'webmaster', 'noreply', 'no-reply', 'Post.Master']) {
      const res = await post({ localPart: name })
      expect(res.statusCode, name).toBe(400)
      expect(res.json()).toMatchObject({ code: 'address_reserved' })
    }
    for (const name of ['.alice', 'alice.', 'al..ice', 'al ice', 'al@ice', 'ålice', 'a'.repeat(65)]) {
      const res = await post({ localPart: name })
      expect(res.statusCode, name).toBe(400)
      expect(['invalid_address', 'validation_failed']).toContain((res.json() as { code: string }).code)
    }
    for (const name of ['a', 'bob', 'test', 'ci-r1']) {
      const res = await post({ localPart: name })
      expect(res.statusCode, name).toBe(400)
      expect(res.json()).toEqual({
        error: 'Choose a name of at least 6 characters: shorter names are easy for others to guess.',
        code: 'invalid_address',
        fields: { localPart: 'Use at least 6 characters.' },
      })
    }
    expect((await post({ localPart: 'ci-run' })).statusCode).toBe(200)
    const res = await post({ domain: 'gmail.com' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'domain_not_served', error: expect.stringContaining('tempbox.local') })
  })

  it('limits active addresses per IP with a clear 429, other IPs unaffected', async () => {
    app = await buildTestApp({ MAX_ACTIVE_ADDRESSES_PER_IP: '2' })
    expect((await post(undefined, '192.0.2.1')).statusCode).toBe(200)
    expect((await post(undefined, '192.0.2.1')).statusCode).toBe(200)
    const res = await post(undefined, '192.0.2.1')
    expect(res.statusCode).toBe(429)
    expect(res.json()).toMatchObject({ code: 'too_many_active_addresses', error: expect.stringContaining('2 active addresses') })
    expect((await post(undefined, '192.0.2.2')).statusCode).toBe(200)
  })

  it('limits addresses generated per hour per IP, other IPs unaffected', async () => {
    app = await buildTestApp({ MAX_GENERATED_PER_HOUR_PER_IP: '3', MAX_ACTIVE_ADDRESSES_PER_IP: '50' })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await post(undefined, '192.0.2.9')).statusCode)
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    const res = await post(undefined, '192.0.2.9')
    expect(res.statusCode).toBe(429)
    expect(res.json()).toEqual({ code: 'rate_limited', error: 'You can create at most 3 addresses per hour. Please try again later.' })
    // Counted per client: another IPv4 address, and an IPv6 client, still get their own three.
    for (const ip of ['192.0.2.10', '2001:db8::1']) {
      const other: number[] = []
      for (let i = 0; i < 4; i++) other.push((await post(undefined, ip)).statusCode)
      expect(other).toEqual([200, 200, 200, 429])
    }
  })

  it('does not store the IP', async () => {
    app = await buildTestApp()
    await generate(app, undefined, '192.0.2.77')
    const rows = await app.db.selectFrom('inbox').selectAll().execute()
    expect(JSON.stringify(rows)).not.toContain('192.0.2.77')
  })
})

describe('GET /api/email/domains', () => {
  it('lists the served domains', async () => {
    app = await buildTestApp({ MAIL_DOMAINS: 'a.test, B.test' })
    const res = await app.inject({ method: 'GET', url: '/api/email/domains' })
    expect(res.json()).toEqual({ domains: ['a.test', 'b.test'] })
  })
})

describe('OpenAPI', () => {
  it('documents every email route at /api/docs', async () => {
    app = await buildTestApp()
    const ui = await app.inject({ method: 'GET', url: '/api/docs' })
    expect(ui.statusCode).toBeLessThan(400)
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, { responses: object }>> }
    for (const path of [
      '/api/email/generate',
      '/api/email/domains',
      '/api/email/{address}',
      '/api/email/{address}/messages/{id}',
      '/api/email/{address}/messages/{id}/raw',
      '/api/email/{address}/messages/{id}/attachments/{n}',
      '/api/email/{address}/events',
      '/api/email/{address}/wait',
    ]) {
      expect(doc.paths[path], path).toBeDefined()
    }
    expect(Object.keys(doc.paths['/api/email/{address}']!.get!.responses)).toEqual(expect.arrayContaining(['200', '400', '404']))
  })
})
