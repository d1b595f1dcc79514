import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { sample } from './metrics-text.js'

let app: App | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

describe("the process's own metrics on /metrics", () => {
  it('reports CPU, memory and the event-loop lag, whose histogram fills from its 100 ms samples', async () => {
    app = await buildTestApp()
    const metrics = () => app!.metrics.registry.metrics()
    const text = await metrics()
    expect(sample(text, 'tempbox_api_process_cpu_seconds_total')).toBeGreaterThan(0)
    expect(sample(text, 'tempbox_api_process_resident_memory_bytes')).toBeGreaterThan(0)
    // Each scrape reports the lag since the one before (prom-client resets the histogram): wait for one whose window
    // holds samples (an empty window says max 0; a window shorter than the 100 ms between samples may be), then its
    // figures must agree with each other.
    let scraped = ''
    const scrapeMax = async () => sample((scraped = await metrics()), 'tempbox_api_nodejs_eventloop_lag_max_seconds') ?? 0
    await expect.poll(scrapeMax, { interval: 300 }).toBeGreaterThan(0)
    const [min, p50, max] = ['min', 'p50', 'max'].map((s) => sample(scraped, `tempbox_api_nodejs_eventloop_lag_${s}_seconds`)!)
    expect(min).toBeGreaterThan(0)
    expect(p50).toBeGreaterThanOrEqual(min!)
    expect(max).toBeGreaterThanOrEqual(p50!)
  })
})
