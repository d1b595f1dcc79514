import { afterEach, describe, expect, it, vi } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { bearer, signUp } from './auth-helpers.js'

let app: App
afterEach(async () => {
  vi.useRealTimers()
  await app?.close()
})

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const CLIENT = '203.0.113.70'
const url = (address: string, rest = '') => `/api/email/${encodeURIComponent(address)}${rest}`

async function generate(payload: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/email/generate', payload, headers, remoteAddress: CLIENT })
}

async function burn(address: string, payload: Record<string, unknown>) {
  const res = await app.inject({ method: 'PUT', url: url(address, '/burn'), payload, remoteAddress: CLIENT })
  expect(res.statusCode).toBe(200)
  return res.json() as { email: string; expiresAt: string; burn: string | null }
}

/** Makes an address `age` ms old, keeping the lifetime it was given (as if it had been made back then). */
async function age(address: string, ageMs: number) {
  const row = await app.db.selectFrom('inbox').select(['created_at', 'expires_at']).where('address', '=', address).executeTakeFirstOrThrow()
  await app.db
    .updateTable('inbox')
    .set({ created_at: row.created_at - ageMs, expires_at: row.expires_at - ageMs })
    .where('address', '=', address)
    .execute()
  app.inboxService.forgetInboxes(await app.db.selectFrom('inbox').select(['id', 'address']).execute())
  return { createdAt: row.created_at - ageMs, expiresAt: row.expires_at - ageMs }
}

const live = async (address: string) => (await app.inject({ method: 'GET', url: url(address), remoteAddress: CLIENT })).statusCode === 200

describe('a burn timer only ever shortens a life (issue 26)', () => {
  it('an anonymous address 23 h 54 min old keeps its end: a 60-minute timer, then turning it off, end at created + 24 h', async () => {
    app = await buildTestApp()
    const email = (await generate()).json().email as string
    const { createdAt } = await age(email, 23 * HOUR + 54 * MINUTE)
    const end = new Date(createdAt + DAY).toISOString()
    expect(await burn(email, { burnAfterMinutes: 60 })).toEqual({ email, expiresAt: end, burn: 'timer' })
    expect(await burn(email, {})).toEqual({ email, expiresAt: end, burn: null })
    expect(await burn(email, { burnAfterRead: true })).toEqual({ email, expiresAt: end, burn: 'read' })
    expect(await burn(email, {})).toEqual({ email, expiresAt: end, burn: null })
  })

  it('a saved address never passes its 7-day end without its owner, whatever the burn calls', async () => {
    app = await buildTestApp({ SAVED_ADDRESS_MAX_DAYS: '7' })
    const { token } = await signUp(app)
    const email = (await generate({}, bearer(token))).json().email as string
    expect((await app.inject({ method: 'PUT', url: url(email, '/expiry'), payload: { days: 7 }, headers: bearer(token) })).statusCode).toBe(200)
    const { createdAt } = await age(email, 7 * DAY - 10 * MINUTE)
    const end = new Date(createdAt + 7 * DAY).toISOString()
    expect(await burn(email, { burnAfterMinutes: 1439 })).toEqual({ email, expiresAt: end, burn: 'timer' })
    expect(await burn(email, {})).toEqual({ email, expiresAt: end, burn: null })
  })

  it('turning a timer off gives back the end from before the timer; an address made with a timer keeps its timer’s end', async () => {
    app = await buildTestApp()
    const usual = (await generate()).json() as { email: string; expiresAt: string }
    const timer = await burn(usual.email, { burnAfterMinutes: 10 })
    expect(Date.parse(timer.expiresAt)).toBeLessThanOrEqual(Date.now() + 10 * MINUTE)
    // A longer timer does not move a shorter one later.
    expect(await burn(usual.email, { burnAfterMinutes: 120 })).toEqual(timer)
    expect(await burn(usual.email, {})).toEqual({ email: usual.email, expiresAt: usual.expiresAt, burn: null })

    const short = (await generate({ burnAfterMinutes: 1 })).json() as { email: string; expiresAt: string }
    expect(await burn(short.email, {})).toEqual({ email: short.email, expiresAt: short.expiresAt, burn: null })
  })
})

describe('the per-client place of an address follows its end (issue 26)', () => {
  it('five addresses made with a 1-minute timer and turned off do not outlive their places: never more than 5 live', async () => {
    app = await buildTestApp({ MAX_ACTIVE_ADDRESSES_PER_IP: '5' })
    const first: string[] = []
    for (let i = 0; i < 5; i++) {
      const email = (await generate({ burnAfterMinutes: 1 })).json().email as string
      await burn(email, {})
      first.push(email)
    }
    expect((await generate()).statusCode).toBe(429)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * MINUTE })
    const second: string[] = []
    for (let i = 0; i < 5; i++) second.push((await generate()).json().email as string)
    const alive = [...first, ...second].filter(Boolean)
    const liveCount = (await Promise.all(alive.map(live))).filter(Boolean).length
    expect(liveCount).toBeLessThanOrEqual(5)
    expect((await generate()).json()).toMatchObject({ code: 'too_many_active_addresses' })
  })

  it('an address kept longer by its owner holds its place until its new end, though it was made with a 1-minute timer', async () => {
    app = await buildTestApp({ MAX_ACTIVE_ADDRESSES_PER_IP: '2' })
    const { token } = await signUp(app)
    const kept = (await generate({ burnAfterMinutes: 1 }, bearer(token))).json().email as string
    expect((await app.inject({ method: 'PUT', url: url(kept, '/expiry'), payload: { days: 3 }, headers: bearer(token) })).statusCode).toBe(200)
    expect((await generate()).statusCode).toBe(200)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * MINUTE })
    expect(await live(kept)).toBe(true)
    const third = await generate()
    expect(third.statusCode).toBe(429)
    expect(third.json()).toEqual({
      error: 'You already have 2 active addresses. Release one you no longer need, or wait until one expires.',
      code: 'too_many_active_addresses',
    })
  })

  it('a timer turned off takes its place back to the restored end; a release frees it whoever releases', async () => {
    app = await buildTestApp({ MAX_ACTIVE_ADDRESSES_PER_IP: '1' })
    const email = (await generate()).json().email as string
    await burn(email, { burnAfterMinutes: 1 })
    await burn(email, {})
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * MINUTE })
    expect(await live(email)).toBe(true)
    expect((await generate()).statusCode).toBe(429)
    // Released from another network: the place of the client that made it is what frees.
    expect((await app.inject({ method: 'DELETE', url: url(email), remoteAddress: '198.51.100.9' })).statusCode).toBe(200)
    expect((await generate()).statusCode).toBe(200)
  })
})
