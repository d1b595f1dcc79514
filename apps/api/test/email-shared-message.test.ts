import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliverToAll, generate } from './email-fixtures.js'

let app: App
let first: string
let second: string
beforeEach(async () => {
  app = await buildTestApp()
  first = await generate(app)
  second = await generate(app)
})
afterEach(async () => {
  await app.close()
})

const mail = {
  subject: 'For both of you',
  text: 'Shared text',
  html: '<p>Shared <img src="cid:pic@x"></p>',
  attachments: [
    { filename: 'pic.png', contentType: 'image/png', content: Buffer.from('png bytes'), contentId: '<pic@x>', inline: true },
    { filename: 'notes.txt', contentType: 'text/plain', content: Buffer.from('notes') },
  ],
}

const get = (url: string) => app.inject({ method: 'GET', url })

async function readsWhole(address: string, id: number): Promise<void> {
  const base = `/api/email/${address}/messages/${id}`
  const message = await get(base)
  expect(message.statusCode).toBe(200)
  expect(message.json()).toMatchObject({ id: String(id), subject: 'For both of you', content: 'Shared text' })
  // Inline images point at this inbox's copy, not the other's.
  expect(message.json().html).toContain(`src="/api/email/${encodeURIComponent(address)}/messages/${id}/attachments/0"`)
  expect((await get(`${base}/raw`)).body).toContain('Subject: For both of you')
  const attachment = await get(`${base}/attachments/1`)
  expect(attachment.statusCode).toBe(200)
  expect(attachment.body).toBe('notes')
  expect((await get(`/api/email/${address}`)).json().messages.map((m: { id: string }) => m.id)).toEqual([String(id)])
}

describe('a message sent to two of our addresses', () => {
  it('reads whole from each inbox: message, source, attachments, listing', async () => {
    const [inFirst, inSecond] = await deliverToAll(app, [first, second], mail)
    expect(inFirst).not.toBe(inSecond)
    await readsWhole(first, inFirst!)
    await readsWhole(second, inSecond!)
    // Each inbox sees only its own copy.
    expect((await get(`/api/email/${first}/messages/${inSecond}`)).statusCode).toBe(404)
  })

  it('stays whole in the other inbox when deleted from one', async () => {
    const [inFirst, inSecond] = await deliverToAll(app, [first, second], mail)
    const deleted = await app.inject({ method: 'DELETE', url: `/api/email/${first}/messages/${inFirst}` })
    expect(deleted.statusCode).toBe(204)
    expect((await get(`/api/email/${first}/messages/${inFirst}`)).statusCode).toBe(404)
    expect((await get(`/api/email/${first}`)).json().messages).toEqual([])
    await readsWhole(second, inSecond!)
  })

  it('stays whole in the other inbox when one address expires, and is gone once both are', async () => {
    const [, inSecond] = await deliverToAll(app, [first, second], mail)
    await app.db.updateTable('inbox').set({ expires_at: Date.now() - 1 }).where('address', '=', first).execute()
    expect(await app.inboxService.sweep()).toBe(1)
    await readsWhole(second, inSecond!)
    await app.db.updateTable('inbox').set({ expires_at: Date.now() - 1 }).where('address', '=', second).execute()
    expect(await app.inboxService.sweep()).toBe(1)
    expect(await app.db.selectFrom('message_content').select('id').execute()).toEqual([])
    expect(await app.db.selectFrom('attachment').select('id').execute()).toEqual([])
  })
})
