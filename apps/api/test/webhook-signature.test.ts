import { createHmac } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { afterEach, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'
import { Receiver } from './webhook-receiver.js'

let app: App
let receiver: Receiver | null = null
afterEach(async () => {
  await app?.close()
  await receiver?.stop()
  receiver = null
})

/** How the docs tell a receiver to check a delivery, written here from scratch rather than with the api's own code. */
function expectedSignature(secret: string, headers: IncomingHttpHeaders, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${String(headers['tempbox-timestamp'])}.${body}`).digest('hex')}`
}

it('signs each delivery as a receiver checks it: v1= HMAC-SHA256 of "<timestamp>.<body>" with the webhook secret', async () => {
  app = await buildTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' })
  receiver = await new Receiver().start()
  const address = await generate(app)
  const put = await app.inject({ method: 'PUT', url: `/api/email/${address}/webhook`, payload: { url: receiver.url() } })
  expect(put.statusCode, put.body).toBe(201)
  const { secret } = put.json<{ secret: string }>()

  const before = Math.floor(Date.now() / 1000)
  await deliver(app, address, { subject: 'Signed' })
  await expect.poll(() => receiver!.bodies.length, { timeout: 20_000 }).toBe(1)
  const [headers, body] = [receiver.headers[0]!, receiver.bodies[0]!]
  expect(JSON.parse(body)).toMatchObject({ address, message: { subject: 'Signed' } })
  const timestamp = Number(headers['tempbox-timestamp'])
  expect(timestamp).toBeGreaterThanOrEqual(before)
  expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000))
  expect(headers['tempbox-signature']).toBe(expectedSignature(secret, headers, body))
  // Another secret, or the same body at another time, gives another signature: a replayed delivery does not verify.
  expect(headers['tempbox-signature']).not.toBe(expectedSignature(`${secret}x`, headers, body))
  expect(headers['tempbox-signature']).not.toBe(expectedSignature(secret, { 'tempbox-timestamp': String(timestamp - 1) }, body))
})
