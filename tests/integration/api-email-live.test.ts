import nodemailer, { type Transporter } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStack, type Stack } from '../support/stack.js'

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

async function generate(): Promise<string> {
  const res = await fetch(`${stack.apiUrl}/api/email/generate`, { method: 'POST' })
  expect(res.status).toBe(200)
  return ((await res.json()) as { email: string }).email
}

/** Sends over real SMTP; resolves when the server answered 250 (the message is committed). */
async function send(to: string, subject: string, text: string): Promise<void> {
  const info = await smtp.sendMail({ from: 'Acme <no-reply@acme.test>', to, subject, text })
  expect(info.response).toMatch(/^250/)
}

describe('long poll over the real stack', () => {
  // How soon after the 250 it answers is measured by `pnpm bench sse` (long-poll rows), not asserted here.
  it('answers with the mail sent over SMTP while it waits, with the code', async () => {
    const address = await generate()
    // since=0: the first message of the inbox, whether the poll or the mail gets there first.
    const polled = fetch(`${stack.apiUrl}/api/email/${address}/wait?timeout=30&since=0`)
    await send(address, 'Your verification code', 'Your verification code is 660412.')
    const res = await polled
    expect(res.status).toBe(200)
    const body = (await res.json()) as { timedOut: boolean; message: { subject: string; fromAddress: string; verification: { codes: string[] } } }
    expect(body.timedOut).toBe(false)
    expect(body.message).toMatchObject({ subject: 'Your verification code', fromAddress: 'no-reply@acme.test', verification: { codes: ['660412'] } })
  })

  it('times out cleanly when nothing arrives', async () => {
    const address = await generate()
    const res = await fetch(`${stack.apiUrl}/api/email/${address}/wait?timeout=1`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: null, messages: [], timedOut: true, nearMisses: { messages: [], deliveries: [], more: false } })
  })
})

describe('Server-Sent Events over the real stack', () => {
  it('pushes a message sent over SMTP to the open stream', async () => {
    const address = await generate()
    const controller = new AbortController()
    const res = await fetch(`${stack.apiUrl}/api/email/${address}/events`, { signal: controller.signal })
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let received = ''
    const readUntil = async (needle: string) => {
      while (!received.includes(needle)) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`stream ended before ${needle}:\n${received}`)
        received += decoder.decode(value, { stream: true })
      }
    }
    await readUntil('event: ready')
    await send(address, 'Pushed to you', 'Hello over SSE')
    await readUntil('event: message')
    await readUntil('\n\n')
    const block = received.slice(received.indexOf('event: message'))
    const data = JSON.parse(/data: (.*)/.exec(block)![1]!) as { message: { subject: string; preview: string } }
    expect(data.message).toMatchObject({ subject: 'Pushed to you', preview: expect.stringContaining('Hello over SSE') })
    controller.abort()
  })
})
