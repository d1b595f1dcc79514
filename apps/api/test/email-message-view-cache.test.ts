import { afterEach, describe, expect, it } from 'vitest'
import { openStorage } from '@tempbox/db'
import type { App } from '../src/app.js'
import { storageConfig } from '../src/config.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

let app: App
afterEach(async () => {
  await app.close()
})

const view = (address: string, id: number) => app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/messages/${id}` })

describe('GET …/messages/{id}: a view read again (kept as bytes by each API process)', () => {
  it('answers the same JSON again, and shows the sender check\'s verdict as soon as another process stores it', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const id = await deliver(app, address, { subject: 'Your code', text: 'Your code is 482913', fromAddress: 'noreply@github.com' })
    const { message_content_id: contentId } = await app.db.selectFrom('message').select('message_content_id').where('id', '=', id).executeTakeFirstOrThrow()
    await app.db.insertInto('message_auth').values({ message_content_id: contentId, status: 'checking' }).execute()
    const first = await view(address, id)
    expect(first.statusCode).toBe(200)
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(first.headers['cache-control']).toBe('private, no-store')
    expect(first.json()).toMatchObject({ id: String(id), subject: 'Your code', content: 'Your code is 482913', auth: { status: 'checking' } })
    expect((await view(address, id)).body).toBe(first.body)

    // Ingest's sender-check worker writes on a connection of its own, as another node would.
    const other = openStorage(storageConfig(app.config, { poolSize: 1 }))
    try {
      await other.writeVerdicts([[contentId, { status: 'fail', details: null, authenticationResults: 'tempbox.test; dmarc=fail' }]], Date.UTC(2026, 10, 25))
    } finally {
      await other.close()
    }
    expect((await view(address, id)).json()).toMatchObject({
      content: 'Your code is 482913',
      auth: { status: 'fail', authenticationResults: 'tempbox.test; dmarc=fail', checkedAt: '2026-11-25T00:00:00.000Z' },
    })
  })

  it('never answers a deleted message from memory', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const id = await deliver(app, address)
    expect((await view(address, id)).statusCode).toBe(200)
    expect((await app.inject({ method: 'DELETE', url: `/api/email/${encodeURIComponent(address)}/messages/${id}` })).statusCode).toBeLessThan(300)
    const gone = await view(address, id)
    expect(gone.statusCode).toBe(404)
    expect(gone.json()).toEqual({ error: 'This message does not exist. It may have been deleted.', code: 'message_not_found' })
  })

  it('serves a view larger than MESSAGE_VIEW_CACHE_MB whole, every time', async () => {
    app = await buildTestApp({ MESSAGE_VIEW_CACHE_MB: '1', MESSAGE_TEXT_MAX_CHARS: String(2 * 1024 * 1024) })
    const address = await generate(app)
    const text = 'Grüße € '.repeat(200_000) // 1.6 M characters, about 2.2 MB as UTF-8
    const id = await deliver(app, address, { text })
    for (let i = 0; i < 2; i++) {
      const res = await view(address, id)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ content: text, contentTruncated: false })
    }
  })
})
