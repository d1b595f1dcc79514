import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

let app: App | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

describe('inbox content is never kept in a browser or shared cache (issue 26)', () => {
  it('sends `private, no-store` on the listing, the message, its frame, raw source, attachments and inline images', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const id = await deliver(app, address, {
      subject: 'Reset your password',
      text: 'Your link is inside',
      html: '<p>Logo <img src="cid:logo@x" alt="logo"></p>',
      attachments: [
        { filename: 'logo.png', contentType: 'image/png', content: Buffer.from('png'), contentId: '<logo@x>', inline: true },
        { filename: 'reset.txt', contentType: 'text/plain', content: Buffer.from('secret link') },
      ],
    })
    const base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/api/email/${encodeURIComponent(address)}`
    const paths = ['', `/messages/${id}`, `/messages/${id}/frame`, `/messages/${id}/raw`, `/messages/${id}/attachments/0`, `/messages/${id}/attachments/1`]
    for (const path of paths) {
      const res = await fetch(base + path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('cache-control'), path).toBe('private, no-store')
      await res.arrayBuffer()
    }
    const wait = await fetch(`${base}/wait?since=0&timeout=1`)
    expect(wait.headers.get('cache-control')).toBe('private, no-store')
    expect(await wait.json()).toMatchObject({ message: { subject: 'Reset your password' } })
  })
})
