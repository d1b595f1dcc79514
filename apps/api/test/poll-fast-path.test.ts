import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { deliver, generate } from './email-fixtures.js'
import { buildTestApp, onPostgres } from './helper.js'

const apps: App[] = []
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()))
})

interface Answer {
  status: number
  /** Every header as sent, in order, but Date. */
  headers: string[]
  body: Buffer
}

/** A GET over a real connection, its headers as they came on the wire. */
function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const raw = res.rawHeaders
        const kept: string[] = []
        for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== 'date') kept.push(raw[i]!, raw[i + 1]!)
        resolve({ status: res.statusCode!, headers: kept, body: Buffer.concat(chunks) })
      })
    })
      .once('error', reject)
      .end()
  })
}

/** An app listening on a port, and how many GETs of the email routes reached Fastify's hooks. */
async function serve(env: Record<string, string> = {}): Promise<{ app: App; base: string; fastifySaw: () => number }> {
  let seen = 0
  const app = await buildTestApp(env, undefined, (built) =>
    built.addHook('onRequest', (req, _reply, done) => {
      if (req.method === 'GET' && req.url.startsWith('/api/email/')) seen++
      done()
    }),
  )
  apps.push(app)
  const base = await app.listen({ host: '127.0.0.1', port: 0 })
  return { app, base, fastifySaw: () => seen }
}

/** Polls until one answer came without Fastify (the page is cached and the watcher up to date). */
async function pollUntilFast(server: Awaited<ReturnType<typeof serve>>, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  for (let i = 0; i < 50; i++) {
    const before = server.fastifySaw()
    const answer = await get(server.base, path, headers)
    if (server.fastifySaw() === before) return answer
  }
  throw new Error('no poll was answered before Fastify')
}

/** The inbox's database for a second app: the same SQLite file or PostgreSQL database. */
function sameDatabase(app: App): Record<string, string> {
  return onPostgres ? { DATABASE_URL: app.config.databaseUrl!, JWT_SECRET: app.config.jwtSecret } : { DATABASE_PATH: app.config.databasePath }
}

function count(text: string, status: string): number {
  const series = `tempbox_http_request_duration_seconds_count{method="GET",route="/api/email/:address",status="${status}"} `
  const line = text.split('\n').find((l) => l.startsWith(series))
  return line === undefined ? 0 : Number(line.slice(series.length))
}

describe('a poll of a cached listing, answered before Fastify routes it', () => {
  it('is the answer the route gives, status, headers in order and bytes, for 304 and 200 in each encoding', async () => {
    const fast = await serve()
    const address = await generate(fast.app)
    for (let i = 0; i < 12; i++) await deliver(fast.app, address, { subject: `Your code is ${100_000 + i}`, text: `Code ${100_000 + i}. `.repeat(20) })
    // The same inbox through the route alone: with access lines on, nothing is answered before Fastify.
    const route = await serve({ ...sameDatabase(fast.app), LOG_REQUESTS: 'true' })
    const path = `/api/email/${encodeURIComponent(address)}`
    const first = await pollUntilFast(fast, path)
    expect(first.status).toBe(200)
    const etag = first.headers[first.headers.findIndex((h) => h.toLowerCase() === 'etag') + 1]!
    expect(etag).toMatch(/^W\/"/)

    const asked: Record<string, string>[] = [
      { 'if-none-match': etag },
      { 'if-none-match': etag, 'accept-encoding': 'gzip, deflate, br' },
      { 'accept-encoding': 'gzip, deflate, br' },
      { 'accept-encoding': 'gzip' },
      {},
      { 'if-none-match': 'W/"another"' },
    ]
    const statuses: number[] = []
    for (const headers of asked) {
      const before = fast.fastifySaw()
      const answer = await get(fast.base, path, headers)
      expect(fast.fastifySaw(), JSON.stringify(headers)).toBe(before)
      const expected = await get(route.base, path, headers)
      expect(answer, JSON.stringify(headers)).toEqual(expected)
      statuses.push(answer.status)
    }
    expect(statuses).toEqual([304, 304, 200, 200, 200, 200])
    const encodings = (a: Answer) => a.headers[a.headers.indexOf('content-encoding') + 1]
    expect(encodings(await get(fast.base, path, { 'accept-encoding': 'br' }))).toBe('br')
    // The security headers an API answer carries, and the poll's own.
    const notModified = await get(fast.base, path, { 'if-none-match': etag })
    expect(notModified.headers).toEqual(expect.arrayContaining(['x-content-type-options', 'nosniff', 'cache-control', 'private, no-store', 'etag', etag]))
    expect(notModified.body.length).toBe(0)
    // Anything but the bare poll is Fastify's to answer: a query, a trailing slash.
    for (const other of [`${path}?limit=20`, `${path}/`]) {
      const before = fast.fastifySaw()
      await get(fast.base, other, { 'if-none-match': etag })
      expect(fast.fastifySaw(), other).toBe(before + 1)
    }

    // Mail that arrives changes the answer at once.
    await deliver(fast.app, address, { subject: 'A new one' })
    const changed = await get(fast.base, path, { 'if-none-match': etag })
    expect(changed.status).toBe(200)
    expect(JSON.parse(changed.body.toString()).messages[0].subject).toBe('A new one')
  }, 60_000)

  it('answers an address however the URL spells it, and never an old answer: new mail or a release shows at once', async () => {
    const fast = await serve()
    const address = await generate(fast.app)
    await deliver(fast.app, address, { subject: 'The first' })
    const [local, domain] = address.split('@') as [string, string]
    const spellings = [`/api/email/${encodeURIComponent(address)}`, `/api/email/${local.toUpperCase()}@${domain}`, `/api/email/${local}%40${domain.toUpperCase()}`]
    const first = await pollUntilFast(fast, spellings[0]!)
    const etag = first.headers[first.headers.indexOf('etag') + 1]!
    for (const path of spellings) {
      const before = fast.fastifySaw()
      expect((await get(fast.base, path, { 'if-none-match': etag })).status, path).toBe(304)
      expect(fast.fastifySaw(), path).toBe(before)
    }

    await deliver(fast.app, address, { subject: 'The second' })
    for (const path of spellings) {
      const changed = await get(fast.base, path, { 'if-none-match': etag })
      expect(changed.status, path).toBe(200)
      expect(JSON.parse(changed.body.toString()).messages.map((m: { subject: string }) => m.subject), path).toEqual(['The second', 'The first'])
    }

    const released = await fast.app.inject({ method: 'DELETE', url: spellings[1]! })
    expect(released.statusCode).toBe(200)
    for (const path of spellings) {
      const gone = await get(fast.base, path)
      expect(gone.status, path).toBe(404)
      expect(JSON.parse(gone.body.toString()).code, path).toBe('inbox_not_found')
    }
  }, 60_000)

  it('is counted in the route’s request durations', async () => {
    const fast = await serve()
    const address = await generate(fast.app)
    const path = `/api/email/${encodeURIComponent(address)}`
    const first = await pollUntilFast(fast, path)
    const etag = first.headers[first.headers.indexOf('etag') + 1]!
    const before = await fast.app.metrics.registry.metrics()
    for (let i = 0; i < 3; i++) expect((await get(fast.base, path, { 'if-none-match': etag })).status).toBe(304)
    for (let i = 0; i < 2; i++) expect((await get(fast.base, path)).status).toBe(200)
    const after = await fast.app.metrics.registry.metrics()
    expect(count(after, '3xx') - count(before, '3xx')).toBe(3)
    expect(count(after, '2xx') - count(before, '2xx')).toBe(2)
  }, 60_000)

  it('leaves a blocked client to the route, which refuses it with 429, and serves the others', async () => {
    const fast = await serve({ GUESS_LIMIT_PER_MINUTE: '5' })
    const address = await generate(fast.app)
    const path = `/api/email/${encodeURIComponent(address)}`
    const etag = (await pollUntilFast(fast, path)).headers
    const tag = etag[etag.indexOf('etag') + 1]!
    let refused: Answer | undefined
    for (let i = 0; i < 20 && !refused; i++) {
      const miss = await get(fast.base, `/api/email/nobody${i}%40tempbox.local`)
      if (miss.status === 429) refused = miss
      else expect(miss.status).toBe(404)
    }
    expect(refused).toBeDefined()
    const poll = await get(fast.base, path, { 'if-none-match': tag })
    expect(poll.status).toBe(429)
    expect(poll.headers).toContain('retry-after')
    expect(JSON.parse(poll.body.toString())).toMatchObject({ code: 'rate_limited', error: expect.stringContaining('Too many addresses') })
  }, 60_000)

  it('behind a trusted proxy, knows the client by X-Forwarded-For as the route does', async () => {
    const fast = await serve({ GUESS_LIMIT_PER_MINUTE: '5', TRUST_PROXY: '1' })
    const address = await generate(fast.app)
    const path = `/api/email/${encodeURIComponent(address)}`
    const first = await pollUntilFast(fast, path)
    const tag = first.headers[first.headers.indexOf('etag') + 1]!
    const guesser = { 'x-forwarded-for': '198.51.100.9' }
    let blocked = false
    for (let i = 0; i < 20 && !blocked; i++) blocked = (await get(fast.base, `/api/email/nobody${i}%40tempbox.local`, guesser)).status === 429
    expect(blocked).toBe(true)
    expect((await get(fast.base, path, { ...guesser, 'if-none-match': tag })).status).toBe(429)
    expect((await get(fast.base, path, { 'x-forwarded-for': '203.0.113.77', 'if-none-match': tag })).status).toBe(304)
    // The proxy itself (no forwarded address) is not the guesser.
    const before = fast.fastifySaw()
    expect((await get(fast.base, path, { 'if-none-match': tag })).status).toBe(304)
    expect(fast.fastifySaw()).toBe(before)
  }, 60_000)

  it('with LOG_REQUESTS=true takes the route, whose access lines log every poll', async () => {
    let log = ''
    const config = loadConfig({ DATABASE_PATH: ':memory:', LOG_LEVEL: 'info', WEB_DIST_DIR: '', LOG_REQUESTS: 'true' })
    const app = await buildApp(config, undefined, { logStream: { write: (line) => void (log += line) } })
    const statuses: number[] = []
    try {
      const base = await app.listen({ host: '127.0.0.1', port: 0 })
      const { email } = (await (await fetch(`${base}/api/email/generate`, { method: 'POST' })).json()) as { email: string }
      const url = `${base}/api/email/${encodeURIComponent(email)}`
      let etag = ''
      for (let i = 0; i < 3; i++) etag = (await fetch(url)).headers.get('etag') ?? ''
      for (let i = 0; i < 3; i++) statuses.push((await fetch(url, { headers: { 'if-none-match': etag } })).status)
    } finally {
      await app.close()
    }
    expect(statuses).toEqual([304, 304, 304])
    const lines = log.split('\n')
    const completed = lines.filter((l) => l.includes('"msg":"request completed"') && l.includes('"statusCode":304'))
    expect(completed).toHaveLength(3)
    expect(lines.filter((l) => l.includes('"msg":"incoming request"') && l.includes('"url":"/api/email/') && l.includes('%40'))).toHaveLength(6)
  })
})
