import { afterEach, describe, expect, it } from 'vitest'
import type { FullMessage } from '@tempbox/types'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

let app: App | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

async function read(a: App, address: string, id: number): Promise<FullMessage> {
  const res = await a.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/messages/${id}` })
  expect(res.statusCode).toBe(200)
  return res.json() as FullMessage
}

async function contentIdOf(a: App, id: number): Promise<number> {
  return (await a.db.selectFrom('message').select('message_content_id').where('id', '=', id).executeTakeFirstOrThrow()).message_content_id
}

describe('GET …/messages/{id}: who really sent it', () => {
  it('is null for a message never checked, checking while ingest checks it, then the stored verdict with its details', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const id = await deliver(app, address, { fromAddress: 'noreply@github.com', subject: 'Your code' })
    expect((await read(app, address, id)).auth).toBeNull()

    const contentId = await contentIdOf(app, id)
    await app.db.insertInto('message_auth').values({ message_content_id: contentId, status: 'checking' }).execute()
    expect((await read(app, address, id)).auth).toEqual({
      status: 'checking', fromDomain: null, spf: null, dkim: [], dmarc: null, arc: null, authenticationResults: null, checkedAt: null,
    })

    const details = {
      fromDomain: 'github.com',
      spf: { result: 'fail', domain: 'github.com' },
      dkim: [{ result: 'pass', domain: 'github.com', selector: 's1', aligned: true }],
      dmarc: { result: 'pass', domain: 'github.com', policy: 'reject' },
      arc: null,
    }
    const checkedAt = Date.UTC(2026, 10, 24, 8)
    await app.db.updateTable('message_auth')
      .set({ status: 'pass', details: JSON.stringify(details), authentication_results: 'tempbox.test; dkim=pass header.i=@github.com; dmarc=pass', checked_at: checkedAt })
      .where('message_content_id', '=', contentId)
      .execute()
    expect((await read(app, address, id)).auth).toEqual({
      status: 'pass', ...details, authenticationResults: 'tempbox.test; dkim=pass header.i=@github.com; dmarc=pass', checkedAt: '2026-11-24T08:00:00.000Z',
    })
  })

  it('goes with its message: deleting the last copy removes the verdict', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const id = await deliver(app, address)
    const contentId = await contentIdOf(app, id)
    await app.db.insertInto('message_auth').values({ message_content_id: contentId, status: 'none' }).execute()
    const res = await app.inject({ method: 'DELETE', url: `/api/email/${encodeURIComponent(address)}/messages/${id}` })
    expect(res.statusCode).toBeLessThan(300)
    expect(await app.db.selectFrom('message_auth').selectAll().execute()).toEqual([])
  })
})
