import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, deliverToAll, generate } from './email-fixtures.js'

let app: App
let address: string
beforeEach(async () => {
  app = await buildTestApp()
  address = await generate(app)
})
afterEach(async () => {
  await app.close()
})

interface Page {
  messages: { id: string; subject: string; read: boolean }[]
  total: number
  unread: number
}

const list = async (a = address, query = '') => {
  const res = await app.inject({ method: 'GET', url: `/api/email/${a}${query}` })
  return { page: res.json() as Page, etag: res.headers.etag as string }
}
const mark = (id: number | string, read: unknown, a = address) =>
  app.inject({ method: 'PATCH', url: `/api/email/${a}/messages/${id}`, payload: { read } })

describe('read state', () => {
  it('lists new mail as unread, with the count, and reading it through the API does not mark it', async () => {
    const id = await deliver(app, address, { subject: 'Your code' })
    await deliver(app, address, { subject: 'Welcome' })
    expect((await list()).page).toMatchObject({ total: 2, unread: 2, messages: [{ subject: 'Welcome', read: false }, { subject: 'Your code', read: false }] })
    expect((await app.inject({ method: 'GET', url: `/api/email/${address}/messages/${id}` })).statusCode).toBe(200)
    expect((await list()).page.unread).toBe(2)
  })

  it('marks one message read and unread again; the listing and its ETag follow, a repeat changes nothing', async () => {
    const id = await deliver(app, address, { subject: 'Your code' })
    await deliver(app, address, { subject: 'Welcome' })
    const before = await list()
    const res = await mark(id, true)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ id: String(id), read: true, unread: 1 })

    const after = await list()
    expect(after.page.unread).toBe(1)
    expect(after.page.messages.find((m) => m.id === String(id))?.read).toBe(true)
    expect(after.etag).not.toBe(before.etag)
    const revalidated = await app.inject({ method: 'GET', url: `/api/email/${address}`, headers: { 'if-none-match': before.etag } })
    expect(revalidated.statusCode).toBe(200)

    // Marking it read again keeps the listing as it was: polls still get 304.
    expect((await mark(id, true)).json()).toMatchObject({ read: true, unread: 1 })
    const same = await app.inject({ method: 'GET', url: `/api/email/${address}`, headers: { 'if-none-match': after.etag } })
    expect(same.statusCode).toBe(304)

    expect((await mark(id, false)).json()).toEqual({ id: String(id), read: false, unread: 2 })
    expect((await list()).page).toMatchObject({ unread: 2, messages: [{ read: false }, { read: false }] })
  })

  it('keeps read state per inbox for a message stored once for several addresses', async () => {
    const second = await generate(app)
    const [inFirst, inSecond] = await deliverToAll(app, [address, second], { subject: 'For both of you' })
    expect((await mark(inFirst!, true)).json()).toMatchObject({ read: true, unread: 0 })
    expect((await list(address)).page).toMatchObject({ unread: 0, messages: [{ read: true }] })
    expect((await list(second)).page).toMatchObject({ unread: 1, messages: [{ id: String(inSecond), read: false }] })
    // One inbox cannot mark another's copy.
    const foreign = await mark(inSecond!, true)
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json()).toMatchObject({ code: 'message_not_found' })
    expect((await list(second)).page.unread).toBe(1)
  })

  it('answers JSON errors for an unknown message, a bad body and an unknown address', async () => {
    const id = await deliver(app, address)
    const missing = await mark(id + 1000, true)
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ code: 'message_not_found', error: expect.any(String) })
    for (const body of ['yes', 2, undefined]) {
      const bad = await mark(id, body)
      expect(bad.statusCode, String(body)).toBe(400)
      expect(bad.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) })
    }
    const unknown = await mark(id, true, 'nobody-here@tempbox.local')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toMatchObject({ code: 'inbox_not_found' })
  })

  it('searches is:unread and is:read; the unread count stays the inbox\'s', async () => {
    const code = await deliver(app, address, { subject: 'Your code' })
    await deliver(app, address, { subject: 'Welcome' })
    await mark(code, true)
    expect((await list(address, '?q=is:unread')).page).toMatchObject({ total: 1, unread: 1, messages: [{ subject: 'Welcome' }] })
    expect((await list(address, '?q=is:read')).page).toMatchObject({ total: 1, unread: 1, messages: [{ subject: 'Your code' }] })
    expect((await list(address, '?q=-is:unread')).page.messages.map((m) => m.subject)).toEqual(['Your code'])
    expect((await list(address, `?q=${encodeURIComponent('IS:UNREAD welcome')}`)).page.messages.map((m) => m.subject)).toEqual(['Welcome'])
    expect((await list(address, `?q=${encodeURIComponent('is:unread code')}`)).page).toMatchObject({ total: 0, messages: [] })
  })
})
