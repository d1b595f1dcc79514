import { afterEach, describe, expect, it } from 'vitest'
import type { FullMessage, WaitResponse } from '@tempbox/types'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate, type TestMail } from './email-fixtures.js'

let app: App | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

async function setUp(env: Record<string, string> = {}) {
  app = await buildTestApp(env)
  const address = await generate(app)
  const url = (id: number, tail = '') => `/api/email/${encodeURIComponent(address)}/messages/${id}${tail}`
  const read = async (id: number) => {
    const res = await app!.inject({ method: 'GET', url: url(id) })
    expect(res.statusCode).toBe(200)
    return res.json<FullMessage>()
  }
  return { app, address, url, read }
}

/** `count` small attachments, each holding its own index; the one at `inlineAt` is an inline image the HTML shows. */
function manyAttachments(count: number, inlineAt = -1): TestMail {
  return {
    subject: `${count} attachments`,
    text: 'See attached',
    html: inlineAt < 0 ? null : `<p>Logo: <img src="cid:logo@x" alt="logo"></p>`,
    attachments: Array.from({ length: count }, (_, i) =>
      i === inlineAt
        ? { filename: 'logo.png', contentType: 'image/png', content: Buffer.from(`png ${i}`), contentId: '<logo@x>', inline: true }
        : { filename: `file-${i}.txt`, contentType: 'text/plain', content: Buffer.from(`content ${i}`) },
    ),
  }
}

describe('GET …/messages/{id}: the first MESSAGE_VIEW_MAX_ATTACHMENTS attachments listed, every one downloadable', () => {
  it('lists the first 10 of 25 by position, says 25 and truncated; one past the cap downloads and its cid: image resolves', async () => {
    const { app, address, url, read } = await setUp({ MESSAGE_VIEW_MAX_ATTACHMENTS: '10' })
    const id = await deliver(app, address, manyAttachments(25, 20))
    // The first read makes the view from bytes, the second serves it again: both say the same.
    for (let i = 0; i < 2; i++) {
      const message = await read(id)
      expect(message.attachments.map((a) => a.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
      expect(message.attachments[9]).toMatchObject({ filename: 'file-9.txt', contentType: 'text/plain', size: 'content 9'.length })
      expect(message.attachmentCount).toBe(25)
      expect(message.attachmentsTruncated).toBe(true)
      expect(message.html).toContain(`src="${url(id, '/attachments/20')}"`)
    }
    const past = await app.inject({ method: 'GET', url: url(id, '/attachments/24') })
    expect(past.statusCode).toBe(200)
    expect(past.body).toBe('content 24')
    const image = await app.inject({ method: 'GET', url: url(id, '/attachments/20') })
    expect(image.statusCode).toBe(200)
    expect(image.body).toBe('png 20')
    expect((await app.inject({ method: 'GET', url: url(id, '/attachments/25') })).statusCode).toBe(404)
  })

  it('the long poll answers the same capped list', async () => {
    const { app, address } = await setUp({ MESSAGE_VIEW_MAX_ATTACHMENTS: '10' })
    await deliver(app, address, manyAttachments(25, 20))
    const res = await app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/wait?since=0&timeout=30` })
    expect(res.statusCode).toBe(200)
    const [message] = res.json<WaitResponse>().messages
    expect(message!.attachments).toHaveLength(10)
    expect(message).toMatchObject({ attachmentCount: 25, attachmentsTruncated: true })
    expect(message!.html).toContain('/attachments/20"')
  })

  it('a mail of exactly the cap, or under it, lists them all and is not truncated', async () => {
    const { app, address, read } = await setUp({ MESSAGE_VIEW_MAX_ATTACHMENTS: '10' })
    const exactly = await deliver(app, address, manyAttachments(10))
    expect(await read(exactly)).toMatchObject({ attachmentCount: 10, attachmentsTruncated: false })
    expect((await read(exactly)).attachments).toHaveLength(10)
    const few = await read(await deliver(app, address, manyAttachments(2)))
    expect(few.attachments.map((a) => a.filename)).toEqual(['file-0.txt', 'file-1.txt'])
    expect(few).toMatchObject({ attachmentCount: 2, attachmentsTruncated: false })
    const none = await read(await deliver(app, address, manyAttachments(0)))
    expect(none).toMatchObject({ attachments: [], attachmentCount: 0, attachmentsTruncated: false })
  })

  it('lists 100 by default', async () => {
    const { app, address, read } = await setUp()
    const message = await read(await deliver(app, address, manyAttachments(101)))
    expect(message.attachments).toHaveLength(100)
    expect(message.attachments.at(-1)!.index).toBe(99)
    expect(message).toMatchObject({ attachmentCount: 101, attachmentsTruncated: true })
  })

  it('refuses a cap that is not a positive integer', async () => {
    await expect(buildTestApp({ MESSAGE_VIEW_MAX_ATTACHMENTS: '0' })).rejects.toThrow(/MESSAGE_VIEW_MAX_ATTACHMENTS/)
  })
})
