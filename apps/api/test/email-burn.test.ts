import { afterEach, describe, expect, it, vi } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver } from './email-fixtures.js'
import { bearer, signUp } from './auth-helpers.js'

let app: App
afterEach(async () => {
  await app?.close()
})

const HOUR = 3_600_000
const DAY = 24 * HOUR
const url = (address: string, rest = '') => `/api/email/${encodeURIComponent(address)}${rest}`

async function generateWith(payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'POST', url: '/api/email/generate', payload, headers, remoteAddress: '203.0.113.7' })
  return res
}

const markRead = (address: string, id: number) =>
  app.inject({ method: 'PATCH', url: url(address, `/messages/${id}`), payload: { read: true }, remoteAddress: '203.0.113.7' })

describe('burn after read', () => {
  it('deletes the address and all its mail when its first message is marked read, and says so', async () => {
    app = await buildTestApp()
    const res = await generateWith({ burnAfterRead: true })
    expect(res.statusCode).toBe(200)
    const { email, burn } = res.json() as { email: string; burn: string }
    expect(burn).toBe('read')
    const first = await deliver(app, email, { subject: 'Your code is 123456' })
    await deliver(app, email, { subject: 'A second one' })
    // Listing (GET) does not burn: only the reader's mark does.
    expect((await app.inject({ method: 'GET', url: url(email) })).json()).toMatchObject({ total: 2, unread: 2 })

    const read = await markRead(email, first)
    expect(read.statusCode).toBe(200)
    expect(read.json()).toEqual({ id: String(first), read: true, unread: 0, burned: true })
    expect(await app.db.selectFrom('inbox').select('id').execute()).toEqual([])
    expect(await app.db.selectFrom('message').select('id').execute()).toEqual([])
    const gone = await app.inject({ method: 'GET', url: url(email) })
    expect(gone.statusCode).toBe(404)
    expect(gone.json()).toEqual({ error: 'This address does not exist or has expired. Generate a new one.', code: 'inbox_not_found' })
  })

  it('marking a message unread, or reading in an ordinary inbox, deletes nothing', async () => {
    app = await buildTestApp()
    const burning = (await generateWith({ burnAfterRead: true })).json().email as string
    const ordinary = (await generateWith({})).json().email as string
    const a = await deliver(app, burning)
    const b = await deliver(app, ordinary)
    const unread = await app.inject({ method: 'PATCH', url: url(burning, `/messages/${a}`), payload: { read: false } })
    expect(unread.json()).toEqual({ id: String(a), read: false, unread: 1 })
    expect((await markRead(ordinary, b)).json()).toEqual({ id: String(b), read: true, unread: 0 })
    expect((await app.db.selectFrom('inbox').select('address').orderBy('id').execute()).map((r) => r.address)).toEqual([burning, ordinary])
  })

  it('can be chosen later from the inbox, and turned off again', async () => {
    app = await buildTestApp()
    const created = (await generateWith({})).json() as { email: string; expiresAt: string }
    const on = await app.inject({ method: 'PUT', url: url(created.email, '/burn'), payload: { burnAfterRead: true } })
    expect(on.json()).toEqual({ email: created.email, expiresAt: created.expiresAt, burn: 'read' })
    const off = await app.inject({ method: 'PUT', url: url(created.email, '/burn'), payload: {} })
    expect(off.json()).toEqual({ email: created.email, expiresAt: created.expiresAt, burn: null })
    const id = await deliver(app, created.email)
    expect((await markRead(created.email, id)).json()).toEqual({ id: String(id), read: true, unread: 0 })
    const on2 = await app.inject({ method: 'PUT', url: url(created.email, '/burn'), payload: { burnAfterRead: true } })
    expect(on2.statusCode).toBe(200)
    const second = await deliver(app, created.email)
    expect((await markRead(created.email, second)).json()).toMatchObject({ burned: true })
    expect((await app.inject({ method: 'GET', url: url(created.email) })).statusCode).toBe(404)
  })

  it('refuses both kinds at once, and timers of 24 hours or more, with a sentence', async () => {
    app = await buildTestApp()
    const both = await generateWith({ burnAfterRead: true, burnAfterMinutes: 10 })
    expect(both.statusCode).toBe(400)
    expect(both.json()).toMatchObject({
      error: 'Choose one: delete the address after its first message is read, or after a number of minutes — not both.',
      code: 'validation_failed',
    })
    const long = await generateWith({ burnAfterMinutes: 1440 })
    expect(long.statusCode).toBe(400)
    expect(long.json()).toMatchObject({ code: 'validation_failed' })
    expect(await app.db.selectFrom('inbox').select('id').execute()).toEqual([])
  })
})

describe('burn after N minutes', () => {
  it('expires the address at the chosen time; the sweep then deletes it with its mail', async () => {
    app = await buildTestApp()
    const before = Date.now()
    const res = (await generateWith({ burnAfterMinutes: 10 })).json() as { email: string; expiresAt: string; burn: string }
    expect(res.burn).toBe('timer')
    const at = Date.parse(res.expiresAt)
    expect(at - before).toBeGreaterThanOrEqual(10 * 60_000)
    expect(at - Date.now()).toBeLessThanOrEqual(10 * 60_000)
    await deliver(app, res.email)
    expect(await app.inboxService.sweep(at - 1)).toBe(0)
    expect(await app.inboxService.sweep(at)).toBe(1)
    expect(await app.db.selectFrom('message').select('id').execute()).toEqual([])
    expect((await app.inject({ method: 'GET', url: url(res.email) })).statusCode).toBe(404)
  })

  it('can be set from the inbox: the new expiry is the timer from now', async () => {
    app = await buildTestApp()
    const email = (await generateWith({})).json().email as string
    const before = Date.now()
    const res = await app.inject({ method: 'PUT', url: url(email, '/burn'), payload: { burnAfterMinutes: 60 } })
    const body = res.json() as { expiresAt: string; burn: string }
    expect(body.burn).toBe('timer')
    expect(Date.parse(body.expiresAt) - before).toBeGreaterThanOrEqual(HOUR)
    expect(Date.parse(body.expiresAt) - Date.now()).toBeLessThanOrEqual(HOUR)
    expect(await app.inboxService.sweep(Date.parse(body.expiresAt))).toBe(1)
  })
})

describe('PUT /api/email/:address/expiry (saved addresses kept longer)', () => {
  it('lets the signed-in owner keep a saved address up to SAVED_ADDRESS_MAX_DAYS from its creation', async () => {
    app = await buildTestApp({ SAVED_ADDRESS_MAX_DAYS: '7' })
    const { token } = await signUp(app)
    const created = (await generateWith({ burnAfterRead: true }, bearer(token))).json() as { email: string; expiresAt: string }
    const createdAt = Date.parse(created.expiresAt) - DAY
    const res = await app.inject({ method: 'PUT', url: url(created.email, '/expiry'), payload: { days: 7 }, headers: bearer(token) })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ email: created.email, expiresAt: new Date(createdAt + 7 * DAY).toISOString(), burn: null })
    // Still there after the usual day, gone after the seventh.
    expect(await app.inboxService.sweep(createdAt + 6 * DAY)).toBe(0)
    expect(await app.inboxService.sweep(createdAt + 7 * DAY)).toBe(1)
  })

  it('caps the days, with a sentence', async () => {
    app = await buildTestApp({ SAVED_ADDRESS_MAX_DAYS: '3' })
    const { token } = await signUp(app)
    const email = (await generateWith({}, bearer(token))).json().email as string
    const res = await app.inject({ method: 'PUT', url: url(email, '/expiry'), payload: { days: 4 }, headers: bearer(token) })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ error: 'A saved address can be kept for at most 3 days from its creation.', code: 'validation_failed' })
    const ok = await app.inject({ method: 'PUT', url: url(email, '/expiry'), payload: { days: 3 }, headers: bearer(token) })
    expect(ok.statusCode).toBe(200)
  })

  it('refuses anyone but the signed-in owner', async () => {
    app = await buildTestApp()
    const owner = await signUp(app)
    const other = await signUp(app)
    const saved = (await generateWith({}, bearer(owner.token))).json() as { email: string; expiresAt: string }
    const anonymous = (await generateWith({})).json().email as string

    const signedOut = await app.inject({ method: 'PUT', url: url(saved.email, '/expiry'), payload: { days: 7 } })
    expect(signedOut.statusCode).toBe(401)
    expect(signedOut.json()).toEqual({ error: 'Sign in to keep an address longer than a day.', code: 'unauthorized' })
    const notOwner = await app.inject({ method: 'PUT', url: url(saved.email, '/expiry'), payload: { days: 7 }, headers: bearer(other.token) })
    expect(notOwner.statusCode).toBe(403)
    expect(notOwner.json()).toEqual({
      error: 'Only the account this address is saved to can keep it longer. Save it to your account first.',
      code: 'forbidden',
    })
    const unsaved = await app.inject({ method: 'PUT', url: url(anonymous, '/expiry'), payload: { days: 7 }, headers: bearer(other.token) })
    expect(unsaved.statusCode).toBe(403)
    const row = await app.db.selectFrom('inbox').select('expires_at').where('address', '=', saved.email).executeTakeFirstOrThrow()
    expect(new Date(row.expires_at).toISOString()).toBe(saved.expiresAt)
  })
})

describe('a lifetime changed by another API process', () => {
  it('is read again when the cached row says the address has expired', async () => {
    app = await buildTestApp()
    const { token } = await signUp(app)
    const created = (await generateWith({}, bearer(token))).json() as { email: string; expiresAt: string }
    // The address is now cached by this process.
    expect((await app.inject({ method: 'GET', url: url(created.email) })).statusCode).toBe(200)
    // Kept longer by another process: only the database knows.
    const kept = Date.parse(created.expiresAt) + DAY
    await app.db.updateTable('inbox').set({ expires_at: kept }).where('address', '=', created.email).execute()
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(created.expiresAt) + HOUR })
    try {
      expect((await app.inject({ method: 'GET', url: url(created.email) })).statusCode).toBe(200)
      vi.setSystemTime(kept)
      expect((await app.inject({ method: 'GET', url: url(created.email) })).statusCode).toBe(404)
    } finally {
      vi.useRealTimers()
    }
  })
})
