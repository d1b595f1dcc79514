import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { clientKey } from '@tempbox/ip'
import { deliver, generate } from './email-fixtures.js'
import { bearer, signUp } from './auth-helpers.js'
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

describe('probing for live names by taking or saving them', { timeout: 30_000 }, () => {
  const create = (localPart: string | undefined, remoteAddress = ATTACKER) =>
    app.inject({ method: 'POST', url: '/api/email/generate', payload: localPart === undefined ? {} : { localPart }, remoteAddress })

  it('counts each "already taken" of a chosen name as a miss: 40 probes get 30 × 409, then 429 with Retry-After', async () => {
    app = await buildTestApp()
    await generate(app, { localPart: 'victim-signup' }, '203.0.113.50')
    const statuses: number[] = []
    let refused
    for (let i = 0; i < 40; i++) {
      const res = await create('victim-signup')
      statuses.push(res.statusCode)
      if (res.statusCode === 429) refused = res
    }
    expect(statuses).toEqual([...Array<number>(30).fill(409), ...Array<number>(10).fill(429)])
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused!.json()).toMatchObject({ code: 'rate_limited', error: expect.stringContaining('Please try again in') })
    // A free chosen name would answer the guess too (200 = it was not live), so it is refused as well …
    expect((await create('free-name-123')).statusCode).toBe(429)
    // … while a random address guesses nothing and is still made.
    expect((await create(undefined)).statusCode).toBe(200)
    // Another client is not affected.
    expect((await create('victim-signup', '198.51.100.67')).statusCode).toBe(409)
    expect((await create('other-free-name', '198.51.100.67')).statusCode).toBe(200)
  })

  it('counts saving an unknown or foreign address to an account as a miss: 30 answers, then 429 even for a live one', async () => {
    app = await buildTestApp()
    const victim = await signUp(app)
    const owned = await generate(app, undefined, '203.0.113.50')
    expect((await app.inject({ method: 'POST', url: '/api/auth/addresses', headers: bearer(victim.token), payload: { email: owned }, remoteAddress: '203.0.113.50' })).statusCode).toBe(200)
    const free = await generate(app, undefined, '203.0.113.50')

    const attacker = await signUp(app)
    const save = (email: string, remoteAddress = ATTACKER) =>
      app.inject({ method: 'POST', url: '/api/auth/addresses', headers: bearer(attacker.token), payload: { email }, remoteAddress })
    const statuses: number[] = []
    for (let i = 0; i < 20; i++) statuses.push((await save(`guess${i}@tempbox.local`)).statusCode)
    for (let i = 0; i < 10; i++) statuses.push((await save(owned)).statusCode)
    expect(statuses).toEqual([...Array<number>(20).fill(404), ...Array<number>(10).fill(409)])
    const refused = await save('guess99@tempbox.local')
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    // A live, unowned address would answer 200: refused too, and the block covers the inbox routes as well.
    expect((await save(free)).statusCode).toBe(429)
    expect((await get(`/api/email/${free}`)).statusCode).toBe(429)
    expect((await save(free, '198.51.100.67')).statusCode).toBe(200)
  })
})

describe('a client reading its own inbox', { timeout: 60_000 }, () => {
  it('is never answered 429 for messages it deleted: 40 answers 404 on deleted ids and attachments, reads go on', async () => {
    app = await buildTestApp()
    const mine = await generate(app, undefined, ATTACKER)
    const ids: number[] = []
    for (let i = 0; i < 5; i++) {
      ids.push(await deliver(app, mine, { subject: `Mail ${i}`, attachments: [{ filename: 'a.txt', contentType: 'text/plain', content: Buffer.from('a') }] }))
    }
    const statuses = new Set<number>()
    for (const id of ids) {
      const url = `/api/email/${mine}/messages/${id}`
      statuses.add((await get(`${url}/raw`)).statusCode)
      statuses.add((await get(`${url}/attachments/0`)).statusCode)
      expect((await app.inject({ method: 'DELETE', url, remoteAddress: ATTACKER })).statusCode).toBe(204)
      // A page that has not caught up asks again for what was just deleted, and reads the inbox between.
      for (let i = 0; i < 3; i++) {
        expect((await get(url)).statusCode).toBe(404)
        expect((await get(`${url}/attachments/0`)).statusCode).toBe(404)
        expect((await get(`${url}/raw`)).statusCode).toBe(404)
        expect((await app.inject({ method: 'DELETE', url, remoteAddress: ATTACKER })).statusCode).toBe(404)
        expect((await get(`/api/email/${mine}`)).statusCode).toBe(200)
      }
    }
    expect([...statuses]).toEqual([200])
    expect((await get(`/api/email/${mine}`)).json()).toMatchObject({ total: 0 })
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
