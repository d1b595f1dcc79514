import { createDb, type Db } from '@tempbox/db'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStack, type Stack } from '../support/stack.js'

let stack: Stack
let db: Db

beforeAll(async () => {
  // Expiry is simulated by moving expires_at back, which ingest's recipient cache (it keeps each inbox's expiry and
  // checks it on every hit) cannot see; the cache itself is tested in apps/mail-ingest/test/smtp-server.test.ts.
  stack = await startStack({ env: { SWEEP_INTERVAL_SECONDS: '1', SMTP_INBOX_CACHE_MS: '0' } })
  db = createDb({ path: stack.dbPath }).db
})
afterAll(async () => {
  await db?.destroy()
  await stack?.stop()
})

describe('an address expiring, through the real api and mail-ingest', () => {
  it('stops taking mail (550), answers 404, and its mail is swept from the file', async () => {
    const { email } = (await (await fetch(`${stack.apiUrl}/api/email/generate`, { method: 'POST' })).json()) as { email: string }
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
    try {
      expect((await smtp.sendMail({ from: 'a@example.test', to: email, subject: 'before expiry', text: 'hi' })).response).toMatch(/^250 /)
      expect((await fetch(`${stack.apiUrl}/api/email/${email}`)).status).toBe(200)

      // The day passes: the row says so, as it would 24 hours on.
      await db.updateTable('inbox').set({ expires_at: Date.now() - 1 }).where('address', '=', email).execute()

      const refused = await smtp.sendMail({ from: 'a@example.test', to: email, subject: 'after expiry', text: 'hi' }).catch((error: { response?: string }) => error)
      expect((refused as { response?: string }).response).toBe('550 5.1.1 Mailbox unavailable: no such address, or it has expired')
      const gone = await fetch(`${stack.apiUrl}/api/email/${email}`)
      expect(gone.status).toBe(404)
      expect(await gone.json()).toMatchObject({ code: 'inbox_not_found' })
      // The api's sweeper deletes the address and its mail.
      await expect.poll(async () => (await db.selectFrom('inbox').select('id').where('address', '=', email).execute()).length, { timeout: 30_000 }).toBe(0)
      expect(await db.selectFrom('message').select('id').where('subject', 'in', ['before expiry', 'after expiry']).execute()).toEqual([])
    } finally {
      smtp.close()
    }
  })
})
