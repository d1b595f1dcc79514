import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStack, type Stack } from '../support/stack.js'

let stack: Stack

beforeAll(async () => {
  // A recipient cache far longer than the test: the refusal must not depend on a cached inbox running out.
  stack = await startStack({ env: { SMTP_INBOX_CACHE_MS: '600000' } })
})
afterAll(async () => {
  await stack?.stop()
})

describe('an address that burns after read, through the real api and mail-ingest', () => {
  it('is deleted with its mail when its first message is marked read, and refuses the next mail with 550 5.1.1', async () => {
    const generated = await fetch(`${stack.apiUrl}/api/email/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ burnAfterRead: true }),
    })
    const { email, burn } = (await generated.json()) as { email: string; burn: string }
    expect(burn).toBe('read')
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
    try {
      expect((await smtp.sendMail({ from: 'a@example.test', to: email, subject: 'Your code is 482913', text: 'hi' })).response).toMatch(/^250 /)
      // A second mail to the address, so the cache has surely seen it before the burn.
      expect((await smtp.sendMail({ from: 'a@example.test', to: email, subject: 'Another one', text: 'hi' })).response).toMatch(/^250 /)
      const listing = (await (await fetch(`${stack.apiUrl}/api/email/${email}`)).json()) as { messages: { id: string; subject: string }[] }
      const first = listing.messages.find((m) => m.subject === 'Your code is 482913')!

      const read = await fetch(`${stack.apiUrl}/api/email/${email}/messages/${first.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ read: true }),
      })
      expect(await read.json()).toEqual({ id: first.id, read: true, unread: 0, burned: true })

      const refused = await smtp.sendMail({ from: 'a@example.test', to: email, subject: 'after the burn', text: 'hi' }).catch((error: { response?: string }) => error)
      expect((refused as { response?: string }).response).toBe('550 5.1.1 Mailbox unavailable: no such address, or it has expired')
      const gone = await fetch(`${stack.apiUrl}/api/email/${email}`)
      expect(gone.status).toBe(404)
      expect(await gone.json()).toEqual({ error: 'This address does not exist or has expired. Generate a new one.', code: 'inbox_not_found' })
    } finally {
      smtp.close()
    }
  })
})
