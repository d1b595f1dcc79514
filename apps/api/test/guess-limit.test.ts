import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { clientKey } from '@tempbox/ip'
import { generate } from './email-fixtures.js'
import { buildTestApp } from './helper.js'

let app: App
afterEach(async () => {
  await app?.close()
})

const ATTACKER = '198.51.100.66'
const get = (url: string, remoteAddress = ATTACKER) => app.inject({ method: 'GET', url, remoteAddress })

describe('guessing inbox addresses', { timeout: 30_000 }, () => {
  it('answers 30 misses a minute with 404, then 429 with Retry-After and a sentence — hits included', async () => {
    app = await buildTestApp()
    const mine = await generate(app, undefined, ATTACKER)
    const statuses: number[] = []
    for (let i = 0; i < 31; i++) statuses.push((await get(`/api/email/guess${i}@tempbox.local`)).statusCode)
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true)
    const refused = await get('/api/email/guess31@tempbox.local')
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(refused.json()).toEqual({
      error: expect.stringMatching(/^Too many addresses that do not exist were asked for from your network\. Please try again in \d+ seconds\.$/),
      code: 'rate_limited',
    })
    // A hit would still tell a guess apart from a miss, so it is refused too; so are message routes.
    expect((await get(`/api/email/${mine}`)).statusCode).toBe(429)
    expect((await get(`/api/email/${mine}/messages/1`)).statusCode).toBe(429)
    // Other routes are not inbox guesses.
    expect((await get('/api/email/domains')).statusCode).toBe(200)
  })

  it('never slows a client reading its own inboxes, and leaves other clients alone', async () => {
    app = await buildTestApp()
    const mine = await generate(app, undefined, '203.0.113.50')
    for (let i = 0; i < 100; i++) expect((await get(`/api/email/${mine}`, '203.0.113.50')).statusCode).toBe(200)
    for (let i = 0; i < 31; i++) await get(`/api/email/guess${i}@tempbox.local`)
    expect((await get('/api/email/guess99@tempbox.local')).statusCode).toBe(429)
    // A second IP is not affected: misses answer 404, its reads 200.
    expect((await get('/api/email/guess0@tempbox.local', '198.51.100.67')).statusCode).toBe(404)
    expect((await get(`/api/email/${mine}`, '203.0.113.50')).statusCode).toBe(200)
  })

  it('counts an IPv6 /64 as one client', async () => {
    app = await buildTestApp({ GUESS_LIMIT_PER_MINUTE: '5' })
    for (let i = 0; i < 5; i++) expect((await get(`/api/email/g${i}@tempbox.local`, `2001:db8:1:2::${i + 1}`)).statusCode).toBe(404)
    expect((await get('/api/email/g9@tempbox.local', '2001:db8:1:2:ffff::9')).statusCode).toBe(429)
    expect((await get('/api/email/g9@tempbox.local', '2001:db8:1:3::1')).statusCode).toBe(404)
  })
})

describe('guessing short links', () => {
  it('answers misses of /s/{code} with 404, then 429; a second client is not affected', async () => {
    app = await buildTestApp({ GUESS_LIMIT_PER_MINUTE: '5' })
    for (let i = 0; i < 5; i++) expect((await get(`/s/Guess00${i}`)).statusCode).toBe(404)
    const refused = await get('/s/Guess009')
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['retry-after']).toBeDefined()
    expect(refused.json()).toMatchObject({ code: 'rate_limited' })
    expect((await get('/s/Guess009', '198.51.100.67')).statusCode).toBe(404)
  })
})

describe('clientKey', () => {
  it('keeps IPv4 whole and groups IPv6 by /64', () => {
    expect(clientKey('203.0.113.5')).toBe('203.0.113.5')
    expect(clientKey('::ffff:203.0.113.5')).toBe('203.0.113.5')
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:db8:1:2:abcd:ef01:2345:6789'))
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'))
  })
})
