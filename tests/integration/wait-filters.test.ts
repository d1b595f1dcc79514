import nodemailer, { type Transporter } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStack, waitFor, type Stack } from '../support/stack.js'

interface WaitAnswer {
  timedOut: boolean
  message: { subject: string; fromAddress: string; text: string | null } | null
  messages: { subject: string; fromAddress: string }[]
}

let stack: Stack
let smtp: Transporter

beforeAll(async () => {
  stack = await startStack()
  smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
})
afterAll(async () => {
  smtp?.close()
  await stack?.stop()
})

async function send(to: string, from: string, subject: string, text = 'hello'): Promise<void> {
  const info = await smtp.sendMail({ from, to, subject, text })
  expect(info.response).toMatch(/^250/)
}

async function listed(address: string): Promise<number> {
  const res = await fetch(`${stack.apiUrl}/api/email/${address}`)
  return ((await res.json()) as { total: number }).total
}

describe('a filtered wait over the real stack (SMTP in, long poll out)', () => {
  it('answers only when two mails from the sender with the subject are there, case aside, with both of them', async () => {
    const generated = await fetch(`${stack.apiUrl}/api/email/generate`, { method: 'POST' })
    const address = ((await generated.json()) as { email: string }).email
    // since=0: every message of the inbox counts, however soon after the call the first arrives.
    const query = new URLSearchParams({ from: 'noreply@myapp.test', subject: 'reset', count: '2', since: '0', timeout: '60' })
    let answered = false
    const waiting = fetch(`${stack.apiUrl}/api/email/${address}/wait?${query}`).then(async (res) => {
      answered = true
      expect(res.status).toBe(200)
      return (await res.json()) as WaitAnswer
    })

    await send(address, 'News <news@myapp.test>', 'Weekly news: how to reset your habits')
    await send(address, 'Not us <noreply@elsewhere.test>', 'Reset your password')
    await send(address, 'MyApp <noreply@myapp.test>', 'Reset your password', 'Your code is 482913.')
    // All three are stored and listed; none but the last matches, and one match is not the two asked for.
    await waitFor(async () => (await listed(address)) === 3, 20_000, 'three listed messages')
    expect(answered).toBe(false)

    await send(address, 'MyApp <NoReply@MyApp.test>', 'RESET confirmed')
    const answer = await waiting
    expect(answer.timedOut).toBe(false)
    expect(answer.messages.map((m) => [m.subject, m.fromAddress.toLowerCase()])).toEqual([
      ['Reset your password', 'noreply@myapp.test'],
      ['RESET confirmed', 'noreply@myapp.test'],
    ])
    expect(answer.message).toMatchObject({ subject: 'Reset your password' })
  })
})
