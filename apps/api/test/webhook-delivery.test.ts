import type { WebhookDeliveriesResponse, WebhookPayload } from '@tempbox/types'
import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'
import { Receiver, type Answer } from './webhook-receiver.js'

type DeliveryView = WebhookDeliveriesResponse['deliveries'][number]

let app: App
let receivers: Receiver[] = []
afterEach(async () => {
  await app?.close()
  for (const r of receivers) await r.stop()
  receivers = []
})

async function receiver(script: Answer[] = []): Promise<Receiver> {
  const r = new Receiver()
  r.script = script
  receivers.push(await r.start())
  return r
}

/** A local receiver is what WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE are for; retries are slow unless a test speeds them. */
const LOCAL = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '600000' }

async function setWebhook(address: string, url: string): Promise<void> {
  const res = await app.inject({ method: 'PUT', url: `/api/email/${address}/webhook`, payload: { url } })
  expect(res.statusCode, res.body).toBe(201)
}

async function deliveries(address: string): Promise<DeliveryView[]> {
  const res = await app.inject({ method: 'GET', url: `/api/email/${address}/webhook/deliveries` })
  expect(res.statusCode).toBe(200)
  return res.json<{ deliveries: DeliveryView[] }>().deliveries
}

/** The newest delivery of the address once `ready` holds for it (the deliverer records attempts in batches). */
async function latestWhen(address: string, ready: (d: DeliveryView) => boolean, what: string): Promise<DeliveryView> {
  let latest: DeliveryView | undefined
  await expect
    .poll(async () => {
      latest = (await deliveries(address))[0]
      return latest !== undefined && ready(latest)
    }, { timeout: 20_000, message: what })
    .toBe(true)
  return latest!
}

/** One sample of the api's Prometheus exposition (0 when the series has not appeared yet). */
async function sample(series: string): Promise<number> {
  const line = (await app.metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `))
  return line ? Number(line.slice(series.length + 1)) : 0
}

describe('webhook queue caps', () => {
  it('records a delivery over the per-inbox or the global cap as dropped, shows it in the log and counts it', async () => {
    app = await buildTestApp({ ...LOCAL, WEBHOOK_MAX_QUEUED_PER_INBOX: '2', WEBHOOK_MAX_QUEUED: '3' })
    // Every attempt fails and the next is ten minutes away, so queued deliveries stay queued.
    const failing = await receiver(Array.from({ length: 10 }, () => ({ status: 500 })))
    const first = await generate(app)
    const second = await generate(app)
    await setWebhook(first, failing.url())
    await setWebhook(second, failing.url())

    for (const subject of ['one', 'two', 'three']) await deliver(app, first, { subject })
    expect((await deliveries(first)).map((d) => d.state)).toEqual(['dropped', 'pending', 'pending'])
    const [dropped] = await deliveries(first)
    expect(dropped).toMatchObject({ attempts: 0, lastError: 'Not queued: too many deliveries were already waiting.', nextAttemptAt: null })

    // The second inbox is under its own cap, but the queue as a whole holds 3 once its first delivery is in.
    await deliver(app, second, { subject: 'four' })
    await deliver(app, second, { subject: 'five' })
    expect((await deliveries(second)).map((d) => d.state)).toEqual(['dropped', 'pending'])

    expect(await sample('tempbox_webhook_dropped_deliveries_total')).toBe(2)
    expect(await sample('tempbox_webhook_queue_deliveries')).toBe(3)
    // Each queued delivery is attempted (and fails); the dropped ones, which would have come in the same scans, never are.
    const attempted = async () => [...(await deliveries(first)), ...(await deliveries(second))].filter((d) => d.attempts === 1).length
    await expect.poll(attempted, { timeout: 20_000 }).toBe(3)
    expect(failing.paths).toHaveLength(3)
    const get = await app.inject({ method: 'GET', url: `/api/email/${first}/webhook` })
    expect(get.json()).toMatchObject({ pendingDeliveries: 2 })
  })
})

describe('webhook payload', () => {
  it('links as many attachments as a message view lists (MESSAGE_VIEW_MAX_ATTACHMENTS), with the total and whether more follow', async () => {
    app = await buildTestApp({ ...LOCAL, MESSAGE_VIEW_MAX_ATTACHMENTS: '3', PUBLIC_URL: 'https://tempbox.example' })
    const target = await receiver()
    const address = await generate(app)
    await setWebhook(address, target.url())
    const files = (count: number) => Array.from({ length: count }, (_, i) => ({ filename: `f${i}.txt`, contentType: 'text/plain', content: Buffer.from(`f${i}`) }))
    const many = await deliver(app, address, { subject: 'many', attachments: files(5) })
    await expect.poll(() => target.bodies.length, { timeout: 20_000 }).toBe(1)
    const few = await deliver(app, address, { subject: 'few', attachments: files(3) })
    await expect.poll(() => target.bodies.length, { timeout: 20_000 }).toBe(2)

    const [manyPayload, fewPayload] = target.bodies.map((b) => JSON.parse(b) as WebhookPayload)
    const link = (id: number, i: number) => `https://tempbox.example/api/email/${encodeURIComponent(address)}/messages/${id}/attachments/${i}`
    expect(manyPayload!.message.attachmentCount).toBe(5)
    expect(manyPayload!.links).toMatchObject({ attachments: [link(many, 0), link(many, 1), link(many, 2)], attachmentsTruncated: true })
    expect(fewPayload!.message.attachmentCount).toBe(3)
    expect(fewPayload!.links).toMatchObject({ attachments: [link(few, 0), link(few, 1), link(few, 2)], attachmentsTruncated: false })
    // The ones past the cap download all the same.
    const past = await app.inject({ method: 'GET', url: link(many, 4).replace('https://tempbox.example', '') })
    expect(past.body).toBe('f4')
  })
})

describe('webhook attempts', () => {
  it('counts a redirect as a failed attempt and never follows it', async () => {
    app = await buildTestApp(LOCAL)
    const target = await receiver([{ status: 302, headers: { Location: '/elsewhere' } }])
    const address = await generate(app)
    await setWebhook(address, target.url())
    await deliver(app, address)

    const delivery = await latestWhen(address, (d) => d.attempts === 1, 'the redirected attempt')
    expect(delivery).toMatchObject({ state: 'pending', lastStatusCode: 302, lastError: 'The receiver answered HTTP 302.' })
    expect(delivery.nextAttemptAt).not.toBeNull()
    expect(target.paths).toEqual(['/hook'])
    expect(await sample('tempbox_webhook_deliveries_total{outcome="failed_attempt"}')).toBe(1)
  })

  it('cuts off a receiver that never answers at the timeout and retries it with the same delivery id', async () => {
    app = await buildTestApp({ ...LOCAL, WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_BASE_MS: '200' })
    const silent = await receiver(['hang', 'hang'])
    const address = await generate(app)
    await setWebhook(address, silent.url())
    await deliver(app, address)

    const delivered = await latestWhen(address, (d) => d.state === 'delivered', 'delivery after two timeouts')
    expect(delivered).toMatchObject({ attempts: 3, lastStatusCode: 200, lastError: null })
    expect(silent.deliveryIds).toEqual([delivered.id, delivered.id, delivered.id])
    expect(await sample('tempbox_webhook_deliveries_total{outcome="failed_attempt"}')).toBe(2)
    expect(await sample('tempbox_webhook_deliveries_total{outcome="delivered"}')).toBe(1)
  })

  it('shows the timeout as the reason while it retries', async () => {
    app = await buildTestApp({ ...LOCAL, WEBHOOK_TIMEOUT_MS: '300' })
    const silent = await receiver(['hang'])
    const address = await generate(app)
    await setWebhook(address, silent.url())
    await deliver(app, address)
    const delivery = await latestWhen(address, (d) => d.attempts === 1, 'the timed-out attempt')
    expect(delivery).toMatchObject({ state: 'pending', lastStatusCode: null, lastError: 'No answer within 300 ms.' })
  })

  it('gives up once the retry window has passed: the delivery is failed and counted as gave_up', async () => {
    // WEBHOOK_RETRY_HOURS is whole hours; a test window of 3 s is set on the config itself.
    app = await buildTestApp({ ...LOCAL, WEBHOOK_RETRY_BASE_MS: '200' }, (c) => ({ ...c, webhooks: { ...c.webhooks, retryWindowMs: 3_000 } }))
    const failing = await receiver(Array.from({ length: 20 }, () => ({ status: 503 })))
    const address = await generate(app)
    await setWebhook(address, failing.url())
    await deliver(app, address)

    const failed = await latestWhen(address, (d) => d.state === 'failed', 'the delivery to be given up')
    expect(failed).toMatchObject({ lastStatusCode: 503, lastError: 'The receiver answered HTTP 503.', nextAttemptAt: null })
    // Retries come 200, 400, 800 ms (+ up to 20 %) after each failure, so a fourth failure is always the last; on a
    // loaded machine, with attempts late, an earlier one may be.
    expect(failed.attempts).toBeGreaterThanOrEqual(1)
    expect(failed.attempts).toBeLessThanOrEqual(4)
    expect(failing.paths).toHaveLength(failed.attempts)
    expect(await sample('tempbox_webhook_deliveries_total{outcome="gave_up"}')).toBe(1)
    expect(await sample('tempbox_webhook_deliveries_total{outcome="failed_attempt"}')).toBe(failed.attempts - 1)
    expect(await sample('tempbox_webhook_queue_deliveries')).toBe(0)
  })
})

describe('connections to a receiver', () => {
  it('carries one delivery after another over one kept-alive connection', async () => {
    app = await buildTestApp(LOCAL)
    const target = await receiver()
    const address = await generate(app)
    await setWebhook(address, target.url())
    for (const subject of ['one', 'two', 'three']) {
      await deliver(app, address, { subject })
      await expect.poll(() => target.paths.length, { timeout: 20_000 }).toBe(['one', 'two', 'three'].indexOf(subject) + 1)
    }
    expect(target.connections).toBe(1)
    const delivered = await latestWhen(address, (d) => d.state === 'delivered', 'the third delivery to be recorded')
    expect(delivered.lastStatusCode).toBe(200)
  })

  it('reads past an answer body up to 64 KB and closes the connection after a longer one, delivering all the same', async () => {
    app = await buildTestApp(LOCAL)
    const target = await receiver()
    target.answerBody = 'x'.repeat(200 * 1024)
    const address = await generate(app)
    await setWebhook(address, target.url())
    for (const subject of ['one', 'two']) {
      await deliver(app, address, { subject })
      await expect.poll(() => target.paths.length, { timeout: 20_000 }).toBe(subject === 'one' ? 1 : 2)
    }
    expect(target.connections).toBe(2)
    await expect.poll(async () => (await deliveries(address)).map((d) => d.state), { timeout: 20_000 }).toEqual(['delivered', 'delivered'])
  })
})

describe('a target that turns private after it was set (DNS rebinding)', () => {
  it('is refused at delivery time, never contacted, logged with the reason and counted as refused_target', async () => {
    // Private targets are not allowed here: the host name must resolve to a public address when set.
    app = await buildTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_RETRY_BASE_MS: '600000' })
    const local = await receiver()
    const address = await generate(app)
    app.webhookDns.lookup = async () => [{ address: '93.184.216.34', family: 4 }]
    await setWebhook(address, local.url('hooks.example.test'))

    app.webhookDns.lookup = async () => [{ address: '127.0.0.1', family: 4 }]
    await deliver(app, address)
    const delivery = await latestWhen(address, (d) => d.attempts === 1, 'the refused attempt')
    expect(delivery).toMatchObject({ state: 'pending', lastStatusCode: null })
    expect(delivery.lastError).toContain('non-public address')
    expect(local.paths).toEqual([])
    expect(await sample('tempbox_webhook_deliveries_total{outcome="refused_target"}')).toBe(1)
  })
})
