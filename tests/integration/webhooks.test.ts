import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createDb } from '@tempbox/db'
import nodemailer, { type Transporter } from 'nodemailer'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startStack, waitFor, type Stack } from '../support/stack.js'

/** The README's verification example, as a receiver would write it. */
function verify(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const expected = 'v1=' + createHmac('sha256', secret).update(`${headers['tempbox-timestamp']}.${body}`).digest('hex')
  const given = String(headers['tempbox-signature'] ?? '')
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected))
}

interface Received {
  headers: IncomingHttpHeaders
  body: string
}

/** A real HTTP receiver on loopback that answers each POST with the next status of `script` (then 200). */
class Receiver {
  readonly received: Received[] = []
  script: number[] = []
  private server: Server | null = null
  port = 0

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
        res.writeHead(this.script.shift() ?? 200, { 'Content-Type': 'text/plain' }).end('a body that is never stored')
      })
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.port = (this.server.address() as AddressInfo).port
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections()
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve())
  }
}

let stack: Stack
let smtp: Transporter
let receiver: Receiver

beforeAll(async () => {
  stack = await startStack({
    // A CI receiver on the same machine: what WEBHOOK_ALLOW_PRIVATE and WEBHOOK_ALLOW_HTTP are for.
    env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '300' },
  })
  smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
})
afterAll(async () => {
  smtp?.close()
  await stack?.stop()
})
afterEach(async () => {
  await receiver?.stop()
})

async function generate(): Promise<string> {
  const res = await fetch(`${stack.apiUrl}/api/email/generate`, { method: 'POST' })
  expect(res.status).toBe(200)
  return ((await res.json()) as { email: string }).email
}

async function setWebhook(address: string, url: string): Promise<string> {
  const res = await fetch(`${stack.apiUrl}/api/email/${address}/webhook`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ url }),
  })
  expect(res.status).toBe(201)
  return ((await res.json()) as { secret: string }).secret
}

interface DeliveryView {
  id: string
  state: string
  attempts: number
  lastStatusCode: number | null
  lastError: string | null
}

async function deliveries(address: string): Promise<DeliveryView[]> {
  const res = await fetch(`${stack.apiUrl}/api/email/${address}/webhook/deliveries`)
  expect(res.status).toBe(200)
  return ((await res.json()) as { deliveries: DeliveryView[] }).deliveries
}

async function send(to: string, subject: string, text: string): Promise<void> {
  const info = await smtp.sendMail({ from: 'Acme <no-reply@acme.test>', to, subject, text, attachments: [{ filename: 'a.txt', content: 'attached' }] })
  expect(info.response).toMatch(/^250/)
}

describe('webhooks over the real stack', () => {
  it('POSTs each new message, signed, with working links to the message, its source and attachments', async () => {
    receiver = new Receiver()
    await receiver.start()
    const address = await generate()
    const secret = await setWebhook(address, receiver.url())
    await send(address, 'Your code', 'Your code is 123456.')
    await waitFor(() => receiver.received.length === 1, 20_000, 'the webhook delivery')

    const [{ headers, body }] = receiver.received as [Received]
    expect(headers['content-type']).toBe('application/json')
    expect(verify(secret, headers, body)).toBe(true)
    expect(verify(secret.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), headers, body)).toBe(false)
    expect(Math.abs(Number(headers['tempbox-timestamp']) - Date.now() / 1000)).toBeLessThan(300)

    const payload = JSON.parse(body) as {
      type: string
      deliveryId: string
      address: string
      message: { subject: string; fromAddress: string; verification: { codes: string[] } }
      links: { message: string; raw: string; attachments: string[]; attachmentsTruncated: boolean }
    }
    expect(payload).toMatchObject({
      type: 'message.received',
      deliveryId: headers['tempbox-delivery'],
      address,
      message: { subject: 'Your code', fromAddress: 'no-reply@acme.test', verification: { codes: ['123456'] } },
    })
    const full = await fetch(payload.links.message)
    expect(full.status).toBe(200)
    expect(((await full.json()) as { subject: string }).subject).toBe('Your code')
    expect(await (await fetch(payload.links.raw)).text()).toContain('Subject: Your code')
    expect(payload.links.attachments).toHaveLength(1)
    expect(payload.links.attachmentsTruncated).toBe(false)
    expect(await (await fetch(payload.links.attachments[0]!)).text()).toBe('attached')

    await waitFor(async () => (await deliveries(address))[0]?.state === 'delivered', 20_000, 'the delivery to be recorded')
    expect(await deliveries(address)).toEqual([
      expect.objectContaining({ id: payload.deliveryId, state: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null }),
    ])
    const metrics = await (await fetch(`http://127.0.0.1:${stack.metricsPort}/metrics`)).text()
    expect(metrics).toContain('tempbox_webhook_deliveries_total{outcome="delivered"} 1\n')
  })

  it('retries a receiver that fails twice; the third attempt carries the same delivery id and is the last', async () => {
    receiver = new Receiver()
    receiver.script = [500, 503]
    await receiver.start()
    const address = await generate()
    const secret = await setWebhook(address, receiver.url())
    await send(address, 'Retry me', 'hello')

    await waitFor(async () => (await deliveries(address))[0]?.state === 'delivered', 30_000, 'delivery after two failures')
    expect(receiver.received).toHaveLength(3)
    const ids = new Set(receiver.received.map((r) => r.headers['tempbox-delivery']))
    expect(ids.size).toBe(1)
    for (const r of receiver.received) expect(verify(secret, r.headers, r.body)).toBe(true)
    const [delivery] = await deliveries(address)
    expect(delivery).toMatchObject({ id: [...ids][0], state: 'delivered', attempts: 3, lastStatusCode: 200 })
  })

  it('shows failed attempts with their status code while retrying, and still delivers after the api restarts', async () => {
    receiver = new Receiver()
    receiver.script = [500, 500, 500, 500, 500, 500, 500, 500]
    await receiver.start()
    const address = await generate()
    await setWebhook(address, receiver.url())
    await send(address, 'Survive a restart', 'hello')

    await waitFor(async () => ((await deliveries(address))[0]?.attempts ?? 0) >= 1, 20_000, 'a failed attempt')
    const [failing] = await deliveries(address)
    expect(failing).toMatchObject({ state: 'pending', lastStatusCode: 500, lastError: 'The receiver answered HTTP 500.' })

    await stack.api.stop()
    receiver.script = []
    await stack.restartApi()

    await waitFor(async () => (await deliveries(address))[0]?.state === 'delivered', 30_000, 'delivery after the restart')
    const ids = new Set(receiver.received.map((r) => r.headers['tempbox-delivery']))
    expect(ids).toEqual(new Set([failing!.id]))
    expect(receiver.received.at(-1)!.headers['tempbox-delivery']).toBe(failing!.id)
  })

  it('stops delivering once the webhook is removed', async () => {
    receiver = new Receiver()
    await receiver.start()
    const address = await generate()
    await setWebhook(address, receiver.url())
    expect((await fetch(`${stack.apiUrl}/api/email/${address}/webhook`, { method: 'DELETE' })).status).toBe(204)
    await send(address, 'Nobody listens', 'hello')
    const wait = (await (await fetch(`${stack.apiUrl}/api/email/${address}/wait?since=0&timeout=10`)).json()) as { message: { id: string } | null }
    expect(wait.message).not.toBeNull()
    expect((await fetch(`${stack.apiUrl}/api/email/${address}/webhook/deliveries`)).status).toBe(404)
    // Deliveries are queued by a trigger in the transaction that stores the message: a readable message with no
    // queued delivery is one that will never be sent, whatever the delivery loop is doing.
    const db = createDb({ path: stack.dbPath }).db
    try {
      const queued = await db.selectFrom('webhook_delivery').select('id').where('message_id', '=', Number(wait.message!.id)).execute()
      expect(queued).toEqual([])
    } finally {
      await db.destroy()
    }
    expect(receiver.received).toHaveLength(0)
  })
})
