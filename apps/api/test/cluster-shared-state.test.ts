import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import errorHandler from '../src/plugins/error-handler.js'
import { AnalyticsService } from '../src/services/analytics/analytics-service.js'
import { IpcClient, serveIpc, UNAVAILABLE, type IpcMessage, type IpcPort } from '../src/cluster/ipc.js'
import { PrimaryState } from '../src/service-state/cluster-primary-state.js'
import { ClusterAddressLimits } from '../src/service-state/cluster-address-limits.js'
import { clusterRateLimitStore } from '../src/service-state/cluster-rate-limit-store.js'
import { ClusterVisitorSalts } from '../src/service-state/cluster-visitor-salts.js'
import { clusterWorkerState } from '../src/service-state/cluster-state.js'
import { deliver, generate } from './email-fixtures.js'
import { rejection } from './app-error.js'

/** A new address for each reservation: a place is held by address. */
let made = 0
const fresh = () => `a${++made}@tempbox.test`

/**
 * An IPC channel in memory that behaves like the cluster's: messages go through JSON and arrive in order in a later
 * turn of the event loop; once closed, sending fails.
 */
function channel() {
  const listeners = { worker: [] as ((message: unknown) => void)[], primary: [] as ((message: unknown) => void)[] }
  let open = true
  const deliverTo = (to: 'worker' | 'primary', message: IpcMessage, failed: (error: Error) => void) => {
    if (!open) return failed(new Error('IPC channel closed'))
    const copy: unknown = JSON.parse(JSON.stringify(message))
    setImmediate(() => listeners[to].forEach((listener) => listener(copy)))
  }
  const worker: IpcPort = { send: (m, failed) => deliverTo('primary', m, failed), onMessage: (l) => listeners.worker.push(l) }
  const primary: IpcPort = { send: (m, failed) => deliverTo('worker', m, failed), onMessage: (l) => listeners.primary.push(l) }
  return { worker, primary, close: () => (open = false) }
}

const LIMITS = { maxActiveAddressesPerIp: 50, maxGeneratedPerHourPerIp: 3, guessLimitPerMinute: 30, loginFailuresPerAccount: 10, maxStreamsPerClient: 20 }

/** A primary holding the shared state, reached by `workers` IPC clients as the cluster's workers reach theirs. */
function inMemoryCluster(workers: number, limits = LIMITS, timeoutMs?: number) {
  const state = new PrimaryState(limits)
  const channels = Array.from({ length: workers }, channel)
  const handlers = state.handlers((origin) => channels.map((c) => c.primary).filter((port) => port !== origin))
  const unexpected: unknown[] = []
  for (const c of channels) serveIpc(c.primary, handlers, (err) => unexpected.push(err))
  return { state, channels, unexpected, clients: channels.map((c) => new IpcClient(c.worker, timeoutMs)) }
}

/** A worker whose primary never answers (stuck), or whose channel is closed (primary gone). */
function orphanClient(timeoutMs: number, closed = false): IpcClient {
  const c = channel()
  if (closed) c.close()
  return new IpcClient(c.worker, timeoutMs)
}

describe('address limits held by the primary', () => {
  const ip = '198.51.100.20'
  const hour = (now: number) => now + 3_600_000

  it('counts addresses made through any worker against one hourly limit, with the single-process message', async () => {
    const [a, b] = inMemoryCluster(2).clients.map((c) => new ClusterAddressLimits(c))
    const now = Date.now()
    await a!.reserve(ip, fresh(), hour(now), now)
    await b!.reserve(ip, fresh(), hour(now), now + 1)
    await a!.reserve(ip, fresh(), hour(now), now + 2)
    const refused = await rejection(b!.reserve(ip, fresh(), hour(now), now + 3))
    expect(refused).toMatchObject({ statusCode: 429, code: 'rate_limited', message: 'You can create at most 3 addresses per hour. Please try again later.' })
    // Another client is not affected.
    await expect(b!.reserve('198.51.100.21', fresh(), hour(now), now + 3)).resolves.toBeUndefined()
  })

  it('lets only as many concurrent requests through as the limit allows', async () => {
    const clients = inMemoryCluster(2).clients.map((c) => new ClusterAddressLimits(c))
    const now = Date.now()
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => clients[i % 2]!.reserve(ip, fresh(), hour(now), now)))
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3)
  })

  it('gives a place back when the address could not be created, and applies the active limit', async () => {
    const [a, b] = inMemoryCluster(2, { ...LIMITS, maxActiveAddressesPerIp: 2, maxGeneratedPerHourPerIp: 100 }).clients.map((c) => new ClusterAddressLimits(c))
    const now = Date.now()
    await a!.reserve(ip, fresh(), hour(now), now)
    await b!.reserve(ip, 'never@tempbox.test', hour(now), now)
    expect(await rejection(a!.reserve(ip, fresh(), hour(now), now))).toMatchObject({
      statusCode: 429,
      code: 'too_many_active_addresses',
      message: 'You already have 2 active addresses. Release one you no longer need, or wait until one expires.',
    })
    await b!.release(ip, 'never@tempbox.test', now)
    await expect(a!.reserve(ip, fresh(), hour(now), now)).resolves.toBeUndefined()
  })

  it('keeps no raw IP in the primary', async () => {
    const { state, clients } = inMemoryCluster(1)
    await new ClusterAddressLimits(clients[0]!).reserve(ip, fresh(), hour(Date.now()), Date.now())
    const entries = (state.limiter as unknown as { entries: Map<string, unknown> }).entries
    expect(entries.size).toBe(1)
    expect([...entries.keys()].join()).not.toContain(ip)
  })

  it('fails closed with 503 when the primary does not answer or is gone', async () => {
    const now = Date.now()
    const stuck = await rejection(new ClusterAddressLimits(orphanClient(50)).reserve(ip, fresh(), hour(now), now))
    expect(stuck).toMatchObject({ statusCode: 503, code: 'unavailable', message: UNAVAILABLE })
    const gone = await rejection(new ClusterAddressLimits(orphanClient(60_000, true)).reserve(ip, fresh(), hour(now), now))
    expect(gone).toMatchObject({ statusCode: 503, code: 'unavailable' })
  })
})

describe('@fastify/rate-limit counters held by the primary', () => {
  const apps: ReturnType<typeof Fastify>[] = []
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()))
  })

  /** A minimal worker app: the real plugin and error handler, one route limited to 3 requests a minute. */
  async function workerApp(ipc: IpcClient) {
    const app = Fastify()
    apps.push(app)
    await app.register(errorHandler)
    await app.register(rateLimit, { global: false, store: clusterRateLimitStore(ipc) })
    app.post('/api/contact', { config: { rateLimit: { max: 3, timeWindow: '1 minute' } } }, async () => ({ ok: true }))
    app.post('/api/other', { config: { rateLimit: { max: 3, timeWindow: '1 minute' } } }, async () => ({ ok: true }))
    await app.ready()
    return app
  }

  it("holds a route's limit across workers, per route and per client", async () => {
    const { clients } = inMemoryCluster(2)
    const workers = [await workerApp(clients[0]!), await workerApp(clients[1]!)]
    const post = (i: number, url = '/api/contact', remoteAddress = '203.0.113.5') => workers[i % 2]!.inject({ method: 'POST', url, remoteAddress })
    const answers = []
    for (let i = 0; i < 4; i++) answers.push(await post(i))
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 429])
    expect(answers.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0'])
    expect(answers[3]!.json()).toEqual({ error: 'Too many requests. Please wait a moment and try again.', code: 'rate_limited' })
    expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThan(55)
    // Other routes and other clients keep their own counts.
    expect((await post(0, '/api/other')).statusCode).toBe(200)
    expect((await post(1, '/api/contact', '203.0.113.6')).statusCode).toBe(200)
  })

  it('refuses with the 503 error when the primary does not answer', async () => {
    const app = await workerApp(orphanClient(50))
    const res = await app.inject({ method: 'POST', url: '/api/contact' })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({ error: UNAVAILABLE, code: 'unavailable' })
  })
})

describe('analytics visitor salt held by the primary', () => {
  it('hashes one visitor alike in every worker, and differently the next day', async () => {
    const { clients } = inMemoryCluster(2)
    const [a, b] = clients.map((c) => new AnalyticsService(null as never, async () => null, new ClusterVisitorSalts(c)))
    const day = Date.UTC(2026, 0, 1, 12)
    const hash = await a!.visitorHash('203.0.113.9', 'UA', day)
    expect(await b!.visitorHash('203.0.113.9', 'UA', day + 60_000)).toBe(hash)
    expect(await b!.visitorHash('203.0.113.9', 'UA', day + 86_400_000)).not.toBe(hash)
  })
})

describe('workers built on the primary (in one process, over one database file)', () => {
  let dir = ''
  const apps: App[] = []
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()))
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  async function workers(env: Record<string, string> = {}) {
    dir = mkdtempSync(join(tmpdir(), 'tempbox-cluster-'))
    const config = loadConfig({ DATABASE_PATH: join(dir, 'tempbox.sqlite'), DATA_DIR: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: '', ...env })
    const { clients } = inMemoryCluster(2, config)
    for (const ipc of clients) apps.push(await buildApp(config, clusterWorkerState(ipc)))
    await Promise.all(apps.map((a) => a.ready()))
    return apps as [App, App]
  }

  it('holds a client to MAX_STREAMS_PER_CLIENT across workers; places come back as polls end, and with a worker that ends', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tempbox-cluster-'))
    const config = loadConfig({ DATABASE_PATH: join(dir, 'tempbox.sqlite'), DATA_DIR: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: '', MAX_STREAMS_PER_CLIENT: '2' })
    const { state, channels, clients } = inMemoryCluster(2, config)
    for (const ipc of clients) apps.push(await buildApp(config, clusterWorkerState(ipc)))
    await Promise.all(apps.map((app) => app.ready()))
    const [a, b] = apps as [App, App]
    const address = await generate(a)
    const client = '198.51.100.30'
    const wait = (app: App, timeout: number) => app.inject({ method: 'GET', url: `/api/email/${address}/wait?timeout=${timeout}`, remoteAddress: client })
    void wait(a, 20)
    void wait(b, 20)
    await expect.poll(() => state.streams.count(client)).toBe(2)
    for (const app of [a, b]) {
      const refused = await wait(app, 0)
      expect(refused.statusCode).toBe(429)
      expect(refused.headers['retry-after']).toBe('30')
      expect(refused.json()).toEqual({ error: 'Your network already has 2 live inbox views or waits open. Close one, or try again in 30 seconds.', code: 'rate_limited' })
    }
    // Worker b ends, and its poll with it: that place comes back; its late news of the poll ending changes nothing.
    state.workerGone(channels[1]!.primary)
    expect(state.streams.count(client)).toBe(1)
    expect((await wait(a, 0)).statusCode).toBe(200)
    await expect.poll(() => state.streams.count(client)).toBe(1)
  })

  it('answers the 4th address of the hour with 429, whichever worker serves it', async () => {
    const [a, b] = await workers({ MAX_GENERATED_PER_HOUR_PER_IP: '3' })
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await [a, b][i % 2]!.inject({ method: 'POST', url: '/api/email/generate', remoteAddress: '198.51.100.7' })).statusCode)
    expect(statuses).toEqual([200, 200, 200, 429])
  })

  it('counts inbox misses from one client on any worker against one limit; each worker then refuses it', async () => {
    const [a, b] = await workers({ GUESS_LIMIT_PER_MINUTE: '3' })
    const address = await generate(a)
    const get = (app: App, name: string) => app.inject({ method: 'GET', url: `/api/email/${name}`, remoteAddress: '198.51.100.9' }).then((r) => r.statusCode)
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push(await get([a, b][i % 2]!, `guess-${i}@tempbox.local`))
    expect(statuses).toEqual([404, 404, 404, 429])
    // Worker b knows; worker a learns at this client's next miss there, and from then on refuses its hits too.
    expect(await get(b, address)).toBe(429)
    expect(await get(a, 'guess-4@tempbox.local')).toBe(429)
    expect(await get(a, address)).toBe(429)
    // Another client reads on.
    expect((await a.inject({ method: 'GET', url: `/api/email/${address}`, remoteAddress: '198.51.100.10' })).statusCode).toBe(200)
  })

  it('counts failed sign-ins of one account on any worker: past the limit each refuses even the right password', async () => {
    const [a, b] = await workers({ LOGIN_FAILURES_PER_ACCOUNT: '3' })
    let client = 0
    // Each attempt from an address of its own, so only the per-account limit can step in.
    const login = (app: App, email: string, password: string) =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: `198.51.100.${++client}` }).then((r) => ({ status: r.statusCode, body: r.json() as unknown }))
    const wrong = { status: 401, body: { error: 'Invalid email or password', code: 'invalid_credentials' } }
    for (const email of ['victim@example.com', 'neighbour@example.com']) {
      expect((await a.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: 'secret-pass' }, remoteAddress: '203.0.113.40' })).statusCode).toBe(200)
    }
    for (let i = 0; i < 3; i++) expect(await login([a, b][i % 2]!, 'victim@example.com', `guess-${i}`)).toEqual(wrong)
    expect(await login(a, 'victim@example.com', 'secret-pass')).toEqual(wrong)
    expect(await login(b, 'victim@example.com', 'secret-pass')).toEqual(wrong)
    expect((await login(b, 'neighbour@example.com', 'secret-pass')).status).toBe(200)
  })

  it('drops a deleted message from every worker, not only the one that deleted it', async () => {
    const [a, b] = await workers()
    const address = await generate(a)
    const id = await deliver(a, address, { subject: 'Delete me' })
    const subjects = async (app: App) => ((await app.inject({ method: 'GET', url: `/api/email/${address}` })).json() as { messages: { subject: string }[] }).messages.map((m) => m.subject)
    // Both workers now hold the listing in their caches.
    expect(await subjects(a)).toEqual(['Delete me'])
    expect(await subjects(b)).toEqual(['Delete me'])
    expect((await a.inject({ method: 'DELETE', url: `/api/email/${address}/messages/${id}` })).statusCode).toBe(204)
    expect(await subjects(b)).toEqual([])
    expect(await subjects(a)).toEqual([])
  })
})
