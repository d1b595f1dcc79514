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

async function setUp() {
  app = await buildTestApp()
  const address = await generate(app)
  const url = (id: number, tail = '') => `/api/email/${encodeURIComponent(address)}/messages/${id}${tail}`
  const read = async (id: number) => {
    const res = await app!.inject({ method: 'GET', url: url(id) })
    expect(res.statusCode).toBe(200)
    return { body: res.body, message: res.json() as FullMessage }
  }
  return { app, address, url, read }
}

const MB = 1024 * 1024

describe('GET …/messages/{id}: header values and lines capped for display, the .eml whole', () => {
  it('a 1 MB Content-Type and From are cut to 4,096 characters and flagged; the .eml download keeps them whole', async () => {
    const { app, address, url, read } = await setUp()
    const contentType = `text/plain; x=${'a'.repeat(MB)}END-OF-TYPE`
    const fromName = `${'B'.repeat(MB)}END-OF-FROM`
    const raw = Buffer.from(`From: "${fromName}" <evil@example.com>\r\nSubject: Big\r\nContent-Type: ${contentType}\r\n\r\nhello\r\n`)
    const id = await deliver(app, address, {
      raw,
      subject: 'Big',
      fromName,
      fromAddress: 'evil@example.com',
      headers: [['from', `"${fromName}" <evil@example.com>`], ['subject', 'Big'], ['content-type', contentType]],
    })
    for (let i = 0; i < 2; i++) {
      const { body, message } = await read(id)
      expect(message.headers).toEqual([
        { name: 'from', value: `"${fromName}" <evil@example.com>`.slice(0, 4096), truncated: true },
        { name: 'subject', value: 'Big' },
        { name: 'content-type', value: contentType.slice(0, 4096), truncated: true },
      ])
      expect(message.headersTruncated).toBe(false)
      expect(message.fromName).toBe(fromName.slice(0, 4096))
      expect(message.sender.length).toBeLessThanOrEqual(4096 + 'evil@example.com'.length + 3)
      expect(body.length).toBeLessThan(32 * 1024)
    }
    const eml = await app.inject({ method: 'GET', url: url(id, '/raw') })
    expect(eml.statusCode).toBe(200)
    expect(eml.body).toContain('END-OF-TYPE')
    expect(eml.body).toContain('END-OF-FROM')
  })

  it('lists the first 200 header lines and says more follow', async () => {
    const { app, address, read } = await setUp()
    const headers = Array.from({ length: 250 }, (_, i): [string, string] => [`x-line-${i}`, `value ${i}`])
    const id = await deliver(app, address, { headers })
    const { message } = await read(id)
    expect(message.headers).toHaveLength(200)
    expect(message.headers[0]).toEqual({ name: 'x-line-0', value: 'value 0' })
    expect(message.headers[199]).toEqual({ name: 'x-line-199', value: 'value 199' })
    expect(message.headersTruncated).toBe(true)
  })

  it('a value of exactly 4,096 characters is whole, not flagged; 200 lines exactly are not flagged', async () => {
    const { app, address, read } = await setUp()
    const headers = Array.from({ length: 200 }, (_, i): [string, string] => [`x-${i}`, i === 0 ? 'é'.repeat(4096) : 'v'])
    const id = await deliver(app, address, { headers })
    const { message } = await read(id)
    expect(message.headers[0]).toEqual({ name: 'x-0', value: 'é'.repeat(4096) })
    expect(message.headers).toHaveLength(200)
    expect(message.headersTruncated).toBe(false)
  })

  it('older rows holding {name, value} objects, and headers that are not JSON, still show the message', async () => {
    const { app, address, read } = await setUp()
    // One message per stored form: a message's content never changes once stored, and views are kept by message.
    const setHeaders = async (id: number, headers: string) => {
      const { message_content_id: contentId } = await app.db.selectFrom('message').select('message_content_id').where('id', '=', id).executeTakeFirstOrThrow()
      await app.db.updateTable('message_content').set({ headers }).where('id', '=', contentId).execute()
    }
    const objects = await deliver(app, address)
    await setHeaders(objects, JSON.stringify([{ name: 'Subject', value: 'Old' }]))
    expect((await read(objects)).message.headers).toEqual([{ name: 'Subject', value: 'Old' }])
    const notJson = await deliver(app, address)
    await setHeaders(notJson, 'not json')
    expect((await read(notJson)).message).toMatchObject({ headers: [], headersTruncated: false, subject: 'Hello' })
  })
})

describe('GET …/messages/{id}: attachment names and types cut like header values', () => {
  it('a 1 MB attachment Content-Type and filename are cut to 4,096 characters in the view, the download answers', async () => {
    const { app, address, url, read } = await setUp()
    const contentType = `text/plain${' '.repeat(MB)}x`
    const filename = `${'f'.repeat(MB)}.txt`
    const id = await deliver(app, address, { attachments: [{ filename, contentType, content: Buffer.from('hello') }] })
    const { body, message } = await read(id)
    expect(message.attachments).toMatchObject([{ index: 0, filename: filename.slice(0, 4096), contentType: contentType.slice(0, 4096), size: 5 }])
    expect(body.length).toBeLessThan(32 * 1024)
    const download = await app.inject({ method: 'GET', url: url(id, '/attachments/0') })
    expect(download.statusCode).toBe(200)
    expect(download.body).toBe('hello')
  })
})
