import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { generate } from './email-fixtures.js'
import { readEvents } from './sse-events.js'

let app: App
const cleanups: (() => void | Promise<void>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
  await app?.close()
})

const REFUSAL = {
  error: 'Your network already has 3 live inbox views or waits open. Close one, or try again in 30 seconds.',
  code: 'rate_limited',
}

describe('MAX_STREAMS_PER_CLIENT (issue 26: one client held 300 event streams)', () => {
  it('refuses a client’s streams and long polls past the cap with 429 and Retry-After, and frees a place when one ends', async () => {
    app = await buildTestApp({ MAX_STREAMS_PER_CLIENT: '3' })
    const address = encodeURIComponent(await generate(app))
    const base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/api/email/${address}`
    const streams = []
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/events`)
      expect(res.status).toBe(200)
      const stream = readEvents(res.body!)
      cleanups.push(stream.cancel)
      await expect.poll(() => stream.events.map((e) => e.event)).toContain('ready')
      streams.push(stream)
    }
    for (const path of ['/events', '/wait?timeout=5', '/code?timeout=5']) {
      const refused = await fetch(base + path)
      expect(refused.status, path).toBe(429)
      expect(refused.headers.get('retry-after'), path).toBe('30')
      expect(await refused.json(), path).toEqual(REFUSAL)
    }
    // Another network is not affected.
    const other = await app.inject({ method: 'GET', url: `/api/email/${address}/wait?timeout=0`, remoteAddress: '198.51.100.8' })
    expect(other.statusCode).toBe(200)

    // A closed stream gives its place back; so does a long poll when it times out.
    await streams[0]!.cancel()
    await expect.poll(async () => (await fetch(`${base}/wait?timeout=0`)).status).toBe(200)
    const again = await fetch(`${base}/events`)
    expect(again.status).toBe(200)
    const stream = readEvents(again.body!)
    cleanups.push(stream.cancel)
    expect((await fetch(`${base}/wait?timeout=0`)).status).toBe(429)
  })
})
