import { afterEach, describe, expect, it, vi } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { generate } from './email-fixtures.js'

/** Names the next random generations take before real random ones, so a test can make one collide with a retired name. */
const queued = vi.hoisted(() => [] as string[])
vi.mock('../src/services/inboxes/address.js', async (actual) => {
  const module = await actual<typeof import('../src/services/inboxes/address.js')>()
  return { ...module, randomLocalPart: (length?: number) => queued.shift() ?? module.randomLocalPart(length) }
})

let app: App
afterEach(async () => {
  queued.length = 0
  await app?.close()
})

const SENTENCE = 'was used before and is retired for good, so mail meant for its earlier owner can never reach someone else. Choose another name.'
const post = (payload: object, ip = '198.51.100.9') => app.inject({ method: 'POST', url: '/api/email/generate', payload, remoteAddress: ip })

describe('an address once issued is never issued again', () => {
  it('a released random address: generating its name again answers 409 address_retired with the reason', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    expect((await app.inject({ method: 'DELETE', url: `/api/email/${address}`, remoteAddress: '203.0.113.7' })).statusCode).toBe(200)
    const res = await post({ localPart: address.split('@')[0]! })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ code: 'address_retired', error: `The address ${address} ${SENTENCE}` })
    expect((await app.inject({ method: 'GET', url: `/api/email/${address}` })).statusCode).toBe(404)
  })

  it('a chosen name that expired, swept or not yet, is retired too; one still live stays "taken"', async () => {
    app = await buildTestApp()
    const swept = await generate(app, { localPart: 'reset-k7' })
    const unswept = await generate(app, { localPart: 'reset-k8' })
    const live = await generate(app, { localPart: 'reset-k9' })
    await app.db.updateTable('inbox').set({ expires_at: Date.now() - 1 }).where('address', 'in', [swept, unswept]).execute()
    await app.inboxService.sweep()
    await app.db.updateTable('inbox').set({ expires_at: Date.now() - 1 }).where('address', '=', unswept).execute()
    for (const name of ['reset-k7', 'Reset-K8']) {
      const res = await post({ localPart: name })
      expect(res.statusCode, name).toBe(409)
      expect(res.json()).toMatchObject({ code: 'address_retired', error: expect.stringContaining(SENTENCE) })
    }
    const taken = await post({ localPart: 'reset-k9' })
    expect(taken.statusCode).toBe(409)
    expect(taken.json()).toMatchObject({ code: 'address_taken' })
    expect((await app.inject({ method: 'GET', url: `/api/email/${live}` })).statusCode).toBe(200)
  })

  it('a random name that comes up retired is skipped for another', async () => {
    app = await buildTestApp()
    const first = await generate(app, { localPart: 'old-random-name' })
    await app.inject({ method: 'DELETE', url: `/api/email/${first}`, remoteAddress: '203.0.113.7' })
    queued.push('old-random-name', 'new-random-name')
    expect(await generate(app)).toBe('new-random-name@tempbox.local')
  })

  it('the list holds keyed hashes, never an address', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const rows = await app.db.selectFrom('issued_address').selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(Buffer.from(rows[0]!.hash).toString('latin1')).not.toContain(address.split('@')[0]!)
  })
})
