import { afterEach, describe, expect, it } from 'vitest'
import type { FullMessage } from '@tempbox/types'
import type { App } from '../src/app.js'
import { refuseWrites } from '@tempbox/db/testing'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

const LIMIT = 1000
let app: App | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

async function setUp(env: Record<string, string> = { MESSAGE_TEXT_MAX_CHARS: String(LIMIT) }) {
  app = await buildTestApp(env)
  const address = await generate(app)
  const read = async (id: number) => {
    const res = await app!.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/messages/${id}` })
    expect(res.statusCode).toBe(200)
    return { body: res.body, message: res.json() as FullMessage }
  }
  return { app, address, read }
}

const storedHead = async (a: App, id: number) =>
  (await a.db.selectFrom('message').leftJoin('message_text_head', 'message_text_head.message_content_id', 'message.message_content_id').select('message_text_head.text').where('message.id', '=', id).executeTakeFirstOrThrow()).text

describe('GET …/messages/{id}: the text part up to MESSAGE_TEXT_MAX_CHARS, sent once', () => {
  it('sends the beginning of a long text once, marked truncated, every read alike; the .eml keeps all of it', async () => {
    const { app, address, read } = await setUp()
    const text = `Your code is 482913. ${'0123456789'.repeat(5000)}TAIL`
    const id = await deliver(app, address, { text })
    for (let i = 0; i < 2; i++) {
      const { body, message } = await read(id)
      expect(message).toMatchObject({ hasTextPart: true, content: text.slice(0, LIMIT), contentTruncated: true, verification: { codes: ['482913'] } })
      expect(message).not.toHaveProperty('text')
      expect(body.length).toBeLessThan(LIMIT + 2000)
    }
    // The first read stored the head, so later reads never load the whole text.
    expect(await storedHead(app, id)).toBe(text.slice(0, LIMIT + 1))
    const raw = await app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/messages/${id}/raw` })
    expect(raw.body).toContain('TAIL')
  })

  it('sends a text of exactly the limit whole, and one longer in bytes but not in characters', async () => {
    const { app, address, read } = await setUp()
    const exact = await deliver(app, address, { text: 'a'.repeat(LIMIT) })
    const accented = await deliver(app, address, { text: 'é'.repeat(LIMIT) })
    expect((await read(exact)).message).toMatchObject({ content: 'a'.repeat(LIMIT), contentTruncated: false })
    expect((await read(accented)).message).toMatchObject({ content: 'é'.repeat(LIMIT), contentTruncated: false })
  })

  it('fills again a head stored under a smaller limit', async () => {
    const { app, address, read } = await setUp()
    const text = 'x'.repeat(LIMIT * 3)
    const id = await deliver(app, address, { text })
    await read(id)
    await app.db.updateTable('message_text_head').set({ text: 'x'.repeat(10) }).execute()
    expect((await read(id)).message).toMatchObject({ content: 'x'.repeat(LIMIT), contentTruncated: true })
  })

  it('still shows the beginning when the head cannot be stored', async () => {
    const { app, address, read } = await setUp()
    const id = await deliver(app, address, { text: `${'y'.repeat(LIMIT)}z` })
    await refuseWrites(app.db, 'message_text_head', 'insert')
    expect((await read(id)).message).toMatchObject({ content: 'y'.repeat(LIMIT), contentTruncated: true })
  })

  it('an HTML-only message carries its rendering as content, with no text part', async () => {
    const { app, address, read } = await setUp()
    const id = await deliver(app, address, { text: null, html: '<p>Hello <b>there</b></p>' })
    expect((await read(id)).message).toMatchObject({ hasTextPart: false, content: 'Hello there', contentTruncated: false })
  })

  it('defaults to 256 K characters and refuses a limit that is not a positive integer', async () => {
    const { app, address, read } = await setUp({})
    const id = await deliver(app, address, { text: 'w'.repeat(256 * 1024 + 5) })
    expect((await read(id)).message.content).toHaveLength(256 * 1024)
    await expect(buildTestApp({ MESSAGE_TEXT_MAX_CHARS: '0' })).rejects.toThrow(/MESSAGE_TEXT_MAX_CHARS/)
  })
})
