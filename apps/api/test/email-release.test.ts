import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

let app: App
afterEach(async () => {
  await app?.close()
})

const release = (address: string, ip = '203.0.113.7') =>
  app.inject({ method: 'DELETE', url: `/api/email/${encodeURIComponent(address)}`, remoteAddress: ip })

describe('DELETE /api/email/:address', () => {
  it('deletes the address with its mail; reading or releasing it again is a 404', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    await deliver(app, address, { subject: 'Kept until released' })
    const res = await release(address)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: true, message: 'The address and its mail have been deleted.' })
    expect(await app.db.selectFrom('message').select('id').execute()).toEqual([])
    expect(await app.db.selectFrom('inbox').select('id').execute()).toEqual([])
    const inbox = await app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}` })
    expect(inbox.statusCode).toBe(404)
    expect((await release(address)).json()).toMatchObject({ code: 'inbox_not_found' })
  })

  it('frees the active place it held, so the client may create another', async () => {
    app = await buildTestApp({ MAX_ACTIVE_ADDRESSES_PER_IP: '2' })
    const first = await generate(app, undefined, '192.0.2.1')
    await generate(app, undefined, '192.0.2.1')
    const refused = await app.inject({ method: 'POST', url: '/api/email/generate', remoteAddress: '192.0.2.1' })
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual({
      error: 'You already have 2 active addresses. Release one you no longer need, or wait until one expires.',
      code: 'too_many_active_addresses',
    })
    expect((await release(first, '192.0.2.1')).statusCode).toBe(200)
    const again = await app.inject({ method: 'POST', url: '/api/email/generate', remoteAddress: '192.0.2.1' })
    expect(again.statusCode).toBe(200)
  })

  it('does not give back a place of the hourly limit: create-and-release cannot get round it', async () => {
    app = await buildTestApp({ MAX_GENERATED_PER_HOUR_PER_IP: '2', MAX_ACTIVE_ADDRESSES_PER_IP: '50' })
    for (let i = 0; i < 2; i++) expect((await release(await generate(app, undefined, '192.0.2.9'), '192.0.2.9')).statusCode).toBe(200)
    const res = await app.inject({ method: 'POST', url: '/api/email/generate', remoteAddress: '192.0.2.9' })
    expect(res.statusCode).toBe(429)
    expect(res.json()).toMatchObject({ code: 'rate_limited' })
  })

  it('answers 400 for a malformed address', async () => {
    app = await buildTestApp()
    const res = await release('not an address')
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'invalid_address' })
  })
})
