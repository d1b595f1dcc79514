import nodemailer, { type Transporter } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Tempbox, TempboxTimeoutError } from '@tempbox/client'
import { startStack, type Stack } from '../support/stack.js'

let stack: Stack
let smtp: Transporter
let tempbox: Tempbox

beforeAll(async () => {
  stack = await startStack()
  smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
  tempbox = new Tempbox({ baseUrl: stack.apiUrl })
})
afterAll(async () => {
  smtp?.close()
  await stack?.stop()
})

async function send(to: string, subject: string, from = 'MyApp <noreply@myapp.test>'): Promise<void> {
  const info = await smtp.sendMail({ from, to, subject, text: 'Hello' })
  expect(info.response).toMatch(/^250/)
}

describe('@tempbox/client: a wait that runs out says what arrived that did not count', () => {
  it('carries the near misses on its TempboxTimeoutError, and says them in its message', async () => {
    const inbox = await tempbox.createInbox()
    await send(inbox.address, 'Your weekly news')
    await send(inbox.address, 'Welcome aboard', 'Other <hello@other.test>')
    const error = await inbox.waitForMessage({ subject: 'welcome', from: 'noreply@myapp', timeoutMs: 1500 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TempboxTimeoutError)
    const timeout = error as TempboxTimeoutError
    expect(timeout.message).toBe(
      `no message matching subject "welcome", from "noreply@myapp" arrived at ${inbox.address} within 1500 ms; 2 arrived that did not match (subject, from)`,
    )
    expect(timeout.nearMisses?.messages.map((m) => [m.subject, m.from, m.failed])).toEqual([
      ['Your weekly news', 'MyApp <noreply@myapp.test>', ['subject']],
      ['Welcome aboard', 'Other <hello@other.test>', ['from']],
    ])
    expect(timeout.nearMisses?.more).toBe(false)
  })

  it('counts a delivery refused over SMTP (+reject) and a deferred one (+full), as the delivery log lists them', async () => {
    const inbox = await tempbox.createInbox()
    const [local, domain] = inbox.address.split('@')
    for (const tag of ['reject', 'full']) {
      const refused = await smtp.sendMail({ from: 'noreply@myapp.test', to: `${local}+${tag}@${domain}`, subject: 'Never stored', text: 'x' }).catch((e: unknown) => e)
      expect(refused).toMatchObject({ responseCode: tag === 'reject' ? 550 : 452 })
    }
    // Refusals are written in batches: the log has them once its write is done.
    const log = `${stack.apiUrl}/api/email/${encodeURIComponent(inbox.address)}/deliveries`
    await expect.poll(async () => ((await (await fetch(log)).json()) as { deliveries: unknown[] }).deliveries.length, { timeout: 20_000 }).toBe(2)
    const { deliveries } = (await (await fetch(log)).json()) as { deliveries: { result: string; replyCode: number; enhancedStatus: string; reason: string; tag: string }[] }
    expect(deliveries.map((d) => [d.result, d.replyCode, d.enhancedStatus, d.reason, d.tag])).toEqual([
      ['deferred', 452, '4.2.2', 'fault_full', 'full'],
      ['refused', 550, '5.7.1', 'fault_reject', 'reject'],
    ])

    const error = await inbox.waitForMessage({ subject: 'Welcome', timeoutMs: 1000 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TempboxTimeoutError)
    expect((error as Error).message).toBe(
      `no message matching subject "Welcome" arrived at ${inbox.address} within 1000 ms; 1 was refused (+reject tag), 1 was deferred (+full tag)`,
    )
    expect((error as TempboxTimeoutError).nearMisses?.deliveries.map((d) => d.reason)).toEqual(['fault_full', 'fault_reject'])
  })

  it('keeps the plain message when nothing came', async () => {
    const quiet = await tempbox.createInbox()
    const error = await quiet.waitForMessage({ subject: 'Welcome', timeoutMs: 1000 }).catch((e: unknown) => e)
    expect((error as Error).message).toBe(`no message matching subject "Welcome" arrived at ${quiet.address} within 1000 ms`)
    expect((error as TempboxTimeoutError).nearMisses).toEqual({ messages: [], deliveries: [], more: false })
  })
})
