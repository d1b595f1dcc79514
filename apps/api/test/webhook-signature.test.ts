import { createHmac } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

let app: App
let server: Server | null = null
afterEach(async () => {
  await app?.close()
  server?.closeAllConnections()
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  server = null
})

/** How the docs tell a receiver to check a delivery, written here from scratch rather than with the api's own code. */
function expectedSignature(secret: string, headers: IncomingHttpHeaders, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${String(headers['tempbox-timestamp'])}.${body}`).digest('hex')}`
}

it('signs each delivery as a receiver checks it: v1= HMAC-SHA256 of "<timestamp>.<body>" with the webhook secret', async () => {
  app = await buildTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' })
  const received: { headers: IncomingHttpHeaders; body: string }[] = []
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const address = await generate(app)
  const put = await app.inject({ method: 'PUT', url: `/api/email/${address}/webhook`, payload: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` } })
  expect(put.statusCode, put.body).toBe(201)
  const { secret } = put.json<{ secret: string }>()

  const before = Math.floor(Date.now() / 1000)
  await deliver(app, address, { subject: 'Signed' })
  await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1)
  const [{ headers, body }] = received as [(typeof received)[number]]
  expect(JSON.parse(body)).toMatchObject({ address, message: { subject: 'Signed' } })
  const timestamp = Number(headers['tempbox-timestamp'])
  expect(timestamp).toBeGreaterThanOrEqual(before)
  expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000))
  expect(headers['tempbox-signature']).toBe(expectedSignature(secret, headers, body))
  // Another secret, or the same body at another time, gives another signature: a replayed delivery does not verify.
  expect(headers['tempbox-signature']).not.toBe(expectedSignature(`${secret}x`, headers, body))
  expect(headers['tempbox-signature']).not.toBe(expectedSignature(secret, { 'tempbox-timestamp': String(timestamp - 1) }, body))
})
