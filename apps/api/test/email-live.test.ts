import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'
import { readEvents } from './sse-events.js'

let app: App
const cleanups: (() => void | Promise<void>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
  await app?.close()
})

const wait = (address: string, query: string) => app.inject({ method: 'GET', url: `/api/email/${address}/wait?${query}` })

describe('GET /api/email/{address}/wait', () => {
  it('times out cleanly with 200 {message: null, timedOut: true}', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const res = await wait(address, 'timeout=1')
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('private, no-store')
    expect(res.json()).toEqual({ message: null, messages: [], timedOut: true, nearMisses: { messages: [], deliveries: [], more: false } })
  })

  it('answers as soon as a message arrives, with its codes and links', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    await deliver(app, address, { subject: 'before the call' })
    const pending = wait(address, 'timeout=30')
    // The wait has taken its baseline once it listens; a message delivered before that would be its baseline.
    await expect.poll(() => app.mailWatcher.subscriberCount()).toBe(1)
    await deliver(app, address, { subject: 'Your login code', text: 'Use 739204 to sign in.' })
    const res = await pending
    expect(res.statusCode).toBe(200)
    const body = res.json() as { timedOut: boolean; message: { subject: string; verification: { codes: string[] } } }
    expect(body.timedOut).toBe(false)
    expect(body.message.subject).toBe('Your login code')
    expect(body.message.verification.codes).toEqual(['739204'])
  })

  it('answers at once with the first message after `since`', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const first = await deliver(app, address, { subject: 'one' })
    await deliver(app, address, { subject: 'two' })
    const res = await wait(address, `timeout=30&since=${first}`)
    expect((res.json() as { message: { subject: string } }).message.subject).toBe('two')
    const all = await wait(address, 'timeout=30&since=0')
    expect((all.json() as { message: { subject: string } }).message.subject).toBe('one')
  })

  it('validates the timeout and the address', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    expect((await wait(address, 'timeout=61')).statusCode).toBe(400)
    expect((await wait(address, 'timeout=abc')).statusCode).toBe(400)
    expect((await wait('bad', 'timeout=1')).json()).toMatchObject({ code: 'invalid_address' })
    expect((await wait('gone@tempbox.local', 'timeout=1')).json()).toMatchObject({ code: 'inbox_not_found' })
  })

  it("sees messages committed by another process (mail-ingest's writer on a connection of its own)", async () => {
    app = await buildTestApp()
    const address = await generate(app)
    // 20 s only bounds a hang, below the test's own timeout so that a missed commit fails with what the wait answered.
    const pending = wait(address, 'timeout=20')
    await expect.poll(() => app.mailWatcher.subscriberCount()).toBe(1)
    await deliver(app, address, { subject: 'from ingest', text: 'hi' })
    expect((await pending).json()).toMatchObject({ timedOut: false, message: { subject: 'from ingest' } })
    // and the cached listing follows too
    const list = await app.inject({ method: 'GET', url: `/api/email/${address}` })
    expect((list.json() as { messages: { subject: string }[] }).messages.map((m) => m.subject)).toEqual(['from ingest'])
  })
})

describe('GET /api/email/{address}/events', () => {
  it('streams ready, then new messages and deletions, with proxy-friendly headers', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const url = await app.listen({ host: '127.0.0.1', port: 0 })
    const res = await fetch(`${url}/api/email/${address}/events`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    expect(res.headers.get('x-accel-buffering')).toBe('no')
    expect(res.headers.get('cache-control')).toContain('no-store')
    const stream = readEvents(res.body!)
    cleanups.push(stream.cancel)
    await expect.poll(() => stream.events.map((e) => e.event)).toEqual(['retry', 'ready'])
    expect(stream.events[1]!.data).toMatchObject({ address })

    const id = await deliver(app, address, { subject: 'pushed', text: 'Your PIN: 4821' })
    await expect.poll(() => stream.events.find((e) => e.event === 'message')).toBeDefined()
    const message = stream.events.find((e) => e.event === 'message')!
    expect(message.id).toBe(String(id))
    expect(message.data.message).toMatchObject({ id: String(id), subject: 'pushed', verification: { codes: ['4821'] } })

    await app.inject({ method: 'DELETE', url: `/api/email/${address}/messages/${id}` })
    await expect.poll(() => stream.events.find((e) => e.event === 'deleted')?.data).toEqual({ id: String(id) })
  })

  it('replays what arrived while disconnected (Last-Event-ID) and only to the right inbox', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const other = await generate(app)
    const seen = await deliver(app, address, { subject: 'seen' })
    await deliver(app, address, { subject: 'missed' })
    const url = await app.listen({ host: '127.0.0.1', port: 0 })
    const res = await fetch(`${url}/api/email/${address}/events`, { headers: { 'Last-Event-ID': String(seen) } })
    const stream = readEvents(res.body!)
    cleanups.push(stream.cancel)
    await deliver(app, other, { subject: 'not mine' })
    await deliver(app, address, { subject: 'live' })
    await expect.poll(() => stream.events.filter((e) => e.event === 'message').map((e) => e.data.message.subject)).toEqual(['missed', 'live'])
  })

  it('keeps an idle stream alive with `: ping` comments at the configured interval, unbuffered, then closes cleanly', async () => {
    app = await buildTestApp({ SSE_HEARTBEAT_MS: '50' })
    const address = await generate(app)
    const url = await app.listen({ host: '127.0.0.1', port: 0 })
    const res = await fetch(`${url}/api/email/${address}/events`)
    expect(res.status).toBe(200)
    // What a buffering proxy (nginx and the like) needs to pass each line through at once.
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream\b/)
    expect(res.headers.get('cache-control')).toMatch(/\bno-(store|cache)\b/)
    expect(res.headers.get('x-accel-buffering')).toBe('no')
    const stream = readEvents(res.body!)
    cleanups.push(stream.cancel)

    const pingsAfterReady = () => {
      const ready = stream.log.indexOf('ready')
      return ready < 0 ? 0 : stream.log.slice(ready + 1).filter((line) => line === ': ping').length
    }
    await expect.poll(pingsAfterReady).toBeGreaterThanOrEqual(2)
    expect(stream.log.slice(0, 2)).toEqual(['retry', 'ready'])
    // Heartbeats are comments: nothing reaches an EventSource's listeners.
    expect(stream.events.map((e) => e.event)).toEqual(['retry', 'ready'])

    // Shutting down ends the stream as a finished response, not a broken one, and does not wait on the heartbeat.
    await app.close()
    await expect.poll(stream.state).toBe('ended')
  })

  it('reads the heartbeat interval from SSE_HEARTBEAT_MS, 15 s unless set', () => {
    const base = { DATABASE_PATH: ':memory:', WEB_DIST_DIR: '' }
    expect(loadConfig(base).sseHeartbeatMs).toBe(15_000)
    expect(loadConfig({ ...base, SSE_HEARTBEAT_MS: '2500' }).sseHeartbeatMs).toBe(2_500)
    expect(() => loadConfig({ ...base, SSE_HEARTBEAT_MS: '0' })).toThrow(/SSE_HEARTBEAT_MS must be an integer ≥ 1 \(got "0"\)/)
    expect(() => loadConfig({ ...base, SSE_HEARTBEAT_MS: '1.5s' })).toThrow(/SSE_HEARTBEAT_MS must be an integer/)
  })

  it('answers 404 JSON for unknown addresses', async () => {
    app = await buildTestApp()
    const res = await app.inject({ method: 'GET', url: '/api/email/nobody@tempbox.local/events' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 'inbox_not_found' })
  })

  it('tells the stream when the address expires and closes it', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const url = await app.listen({ host: '127.0.0.1', port: 0 })
    const res = await fetch(`${url}/api/email/${address}/events`)
    const stream = readEvents(res.body!)
    cleanups.push(stream.cancel)
    await expect.poll(() => stream.events.length).toBe(2)
    await app.db.updateTable('inbox').set({ expires_at: Date.now() - 1 }).execute()
    await app.inboxService.sweep()
    await expect.poll(() => stream.events.at(-1)).toEqual({ event: 'expired', id: undefined, data: { address } })
  })
})
