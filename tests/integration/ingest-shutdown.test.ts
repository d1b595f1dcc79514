import { connect } from 'node:net'
import { createDb } from '@tempbox/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawSession } from '../support/smtp-session.js'
import { startStack, type Stack } from '../support/stack.js'

let stack: Stack

beforeAll(async () => {
  stack = await startStack({ parseWorkers: true })
})
afterAll(async () => {
  await stack?.stop()
})

describe('mail-ingest on SIGTERM', () => {
  it('lets an open session finish its message (250, stored), refuses new connections, then exits 0', async () => {
    const { email } = (await (await fetch(`${stack.apiUrl}/api/email/generate`, { method: 'POST' })).json()) as { email: string }
    const session = rawSession(stack.smtpPort)
    expect(await session.reply()).toMatch(/^220 /)
    expect(await session.command('EHLO test.local')).toMatch(/^250 /)
    expect(await session.command('MAIL FROM:<a@example.test>')).toMatch(/^250 /)
    expect(await session.command(`RCPT TO:<${email}>`)).toMatch(/^250 /)
    expect(await session.command('DATA')).toMatch(/^354 /)
    session.socket.write('Subject: sent across a shutdown\r\n\r\nfirst half\r\n')

    const exited = new Promise<number | null>((resolve) => stack.ingest.child.once('exit', (code) => resolve(code)))
    stack.ingest.child.kill('SIGTERM')
    // The server has stopped listening once a new connection is refused; the open session is still there.
    await expect
      .poll(() => new Promise<boolean>((resolve) => connect(stack.smtpPort, '127.0.0.1').once('connect', function (this: import('node:net').Socket) { this.destroy(); resolve(false) }).once('error', () => resolve(true))), { timeout: 30_000 })
      .toBe(true)

    expect(await session.command('second half\r\n.')).toMatch(/^250 /)
    expect(await exited).toBe(0)
    const { db } = createDb({ path: stack.dbPath })
    try {
      const stored = await db.selectFrom('message').select('subject').where('subject', '=', 'sent across a shutdown').execute()
      expect(stored).toHaveLength(1)
    } finally {
      await db.destroy()
    }
  })
})

describe('mail-ingest on SIGTERM with a session stuck mid-DATA', () => {
  let short: Stack
  beforeAll(async () => {
    short = await startStack({ parseWorkers: true, env: { SMTP_CLOSE_TIMEOUT_MS: '500' } })
  })
  afterAll(async () => {
    await short?.stop()
  })

  it('answers 421 at the deadline and closes, exits 0, and stores nothing of the cut-off message', async () => {
    const { email } = (await (await fetch(`${short.apiUrl}/api/email/generate`, { method: 'POST' })).json()) as { email: string }
    const session = rawSession(short.smtpPort)
    expect(await session.reply()).toMatch(/^220 /)
    expect(await session.command('EHLO test.local')).toMatch(/^250 /)
    expect(await session.command('MAIL FROM:<a@example.test>')).toMatch(/^250 /)
    expect(await session.command(`RCPT TO:<${email}>`)).toMatch(/^250 /)
    expect(await session.command('DATA')).toMatch(/^354 /)
    // Never finished: no final dot.
    session.socket.write('Subject: cut off by a shutdown\r\n\r\nhalf a message\r\n')

    const exited = new Promise<number | null>((resolve) => short.ingest.child.once('exit', (code) => resolve(code)))
    short.ingest.child.kill('SIGTERM')
    expect(await session.reply()).toBe(`421 4.3.2 ${short.mailDomain} Service shutting down, please try again later`)
    await session.closed
    expect(await exited).toBe(0)

    const listing = (await (await fetch(`${short.apiUrl}/api/email/${email}`)).json()) as { messages: unknown[] }
    expect(listing.messages).toEqual([])
    const { db } = createDb({ path: short.dbPath })
    try {
      const inbox = await db.selectFrom('inbox').select('id').where('address', '=', email).executeTakeFirstOrThrow()
      expect(await db.selectFrom('message').select('id').where('inbox_id', '=', inbox.id).execute()).toEqual([])
      expect(await db.selectFrom('message').select('id').where('subject', '=', 'cut off by a shutdown').execute()).toEqual([])
    } finally {
      await db.destroy()
    }
  })
})
