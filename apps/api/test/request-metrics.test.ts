import { AggregatorRegistry } from 'prom-client'
import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { generate } from './email-fixtures.js'
import { buildTestApp } from './helper.js'
import { sample } from './metrics-text.js'

let app: App | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const NAME = 'tempbox_http_request_duration_seconds'

describe('request durations on /metrics', () => {
  it('counts answers by method, route pattern and status class, with cumulative buckets', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const listing = await app.inject({ url: `/api/email/${address}` })
    await app.inject({ url: `/api/email/${address}`, headers: { 'if-none-match': listing.headers.etag as string } })
    await app.inject({ url: `/api/email/${address}` })
    await app.inject({ url: '/api/email/nobody@tempbox.local' })
    await app.inject({ method: 'DELETE', url: '/api/no-such-route' })
    const text = await app.metrics.registry.metrics()
    expect(text).toContain(`# TYPE ${NAME} histogram`)
    const route = (status: string, method = 'GET') => `method="${method}",route="/api/email/:address",status="${status}"`
    expect(sample(text, `${NAME}_count{${route('2xx')}}`)).toBe(2)
    expect(sample(text, `${NAME}_count{${route('3xx')}}`)).toBe(1)
    expect(sample(text, `${NAME}_count{${route('4xx')}}`)).toBe(1)
    expect(sample(text, `${NAME}_count{method="DELETE",route="unmatched",status="4xx"}`)).toBe(1)
    expect(sample(text, `${NAME}_count{method="POST",route="/api/email/generate",status="2xx"}`)).toBe(1)
    expect(sample(text, `${NAME}_bucket{le="+Inf",${route('2xx')}}`)).toBe(2)
    expect(sample(text, `${NAME}_sum{${route('2xx')}}`)).toBeGreaterThan(0)
    // Buckets are cumulative: each counts at least what the one below does, the last all of them.
    const buckets = text.split('\n').filter((l) => l.startsWith(`${NAME}_bucket{`) && l.includes(route('2xx'))).map((l) => Number(l.split(' ').pop()))
    expect(buckets).toHaveLength(13)
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b))
    // Nothing of the address reaches a label.
    expect(text).not.toContain(address)
  })

  it('adds up across processes as the cluster primary does', async () => {
    app = await buildTestApp()
    await app.inject({ url: '/api/health/live' })
    await app.inject({ url: '/api/health/live' })
    const worker = await app.metrics.registry.getMetricsAsJSON()
    const summed = AggregatorRegistry.aggregate([worker, worker])
    const text = await summed.metrics()
    expect(sample(text, `${NAME}_count{method="GET",route="/api/health/live",status="2xx"}`)).toBe(4)
    expect(sample(text, `${NAME}_bucket{le="+Inf",method="GET",route="/api/health/live",status="2xx"}`)).toBe(4)
  })
})
