import { request as httpRequest } from 'node:http'
import { connect, type Socket } from 'node:net'
import nodemailer from 'nodemailer'
import { createDb } from '@tempbox/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { childProcesses, connectionOwner, isRunning, readProcess, startStack, waitFor, type Stack } from '../support/stack.js'

/**
 * The API with API_PROCESSES=2: a primary forking two workers that share HOST:PORT. Which worker serves a connection
 * is read from the operating system (which worker process holds the server end of our TCP connection), not asked of
 * the server.
 */
const WORKERS = 2
const MAX_PER_HOUR = 3

let stack: Stack
let primaryPid: number

beforeAll(async () => {
  stack = await startStack({
    env: {
      API_PROCESSES: String(WORKERS),
      MAX_GENERATED_PER_HOUR_PER_IP: String(MAX_PER_HOUR),
      // Each test speaks for its own client through X-Forwarded-For, so the hourly limit one test uses up does not
      // stop the next one; the limits are keyed by that client address as they are behind a real proxy.
      TRUST_PROXY: '127.0.0.1',
    },
  })
  primaryPid = stack.api.child.pid!
  await waitFor(() => workerPids().length === WORKERS, 30_000, `${WORKERS} workers\n${stack.api.output()}`)
})
afterAll(async () => {
  await stack?.stop()
})

/** The primary's worker processes: its children running the API entry (tsx's esbuild helper is a child too). */
function workerPids(): number[] {
  return childProcesses(primaryPid)
    .filter((p) => p.cmdline.includes(stack.api.entry))
    .map((p) => p.pid)
}

interface Connection {
  socket: Socket
  /** The worker process holding the server end. */
  worker: number
}

/** A new TCP connection to the API, once the primary has handed it to one of `workers`. */
async function openConnection(workers = workerPids()): Promise<Connection> {
  const socket = connect({ host: '127.0.0.1', port: stack.httpPort })
  await new Promise<void>((ok, fail) => socket.once('connect', ok).once('error', fail))
  let worker: number | undefined
  await waitFor(() => (worker = connectionOwner(stack.httpPort, socket.localPort!, workers)) !== undefined, 20_000, 'a worker to take the connection')
  return { socket, worker: worker! }
}

/**
 * Opens connections until each of `workers` holds at least `perWorker` of them (a worker that is still starting gets
 * none until it listens); extras are closed.
 */
async function connectionsToEach(workers: number[], perWorker: number, timeoutMs = 20_000): Promise<Map<number, Connection[]>> {
  const byWorker = new Map(workers.map((pid) => [pid, [] as Connection[]]))
  const deadline = Date.now() + timeoutMs
  while (![...byWorker.values()].every((list) => list.length >= perWorker)) {
    if (Date.now() > deadline) {
      for (const list of byWorker.values()) list.forEach((conn) => conn.socket.destroy())
      throw new Error(`connections did not reach every worker: ${[...byWorker].map(([pid, list]) => `${pid}: ${list.length}`).join(', ')}`)
    }
    const conn = await openConnection(workers)
    const list = byWorker.get(conn.worker)!
    if (list.length < perWorker) list.push(conn)
    else conn.socket.destroy()
  }
  return byWorker
}

interface Answer {
  status: number
  body: string
}

/** One HTTP request over `socket`, which is closed after the answer. */
function requestOver(socket: Socket, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ createConnection: () => socket, method, path, headers: { host: `127.0.0.1:${stack.httpPort}`, connection: 'close', ...headers } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => {
        socket.destroy()
        resolve({ status: res.statusCode!, body })
      })
    })
    req.on('error', reject)
    req.end()
  })
}

/** One request on a fresh connection, so the primary's round-robin picks the worker. */
async function freshRequest(method: string, path: string, headers?: Record<string, string>): Promise<Answer> {
  const socket = connect({ host: '127.0.0.1', port: stack.httpPort })
  await new Promise<void>((ok, fail) => socket.once('connect', ok).once('error', fail))
  return requestOver(socket, method, path, headers)
}

describe('API with API_PROCESSES=2', () => {
  it('serves requests from both worker processes', async () => {
    const workers = workerPids()
    expect(workers).toHaveLength(WORKERS)
    const byWorker = await connectionsToEach(workers, 2)
    for (const [worker, conns] of byWorker) {
      for (const { socket } of conns) {
        const res = await requestOver(socket, 'GET', '/api/health')
        expect(res.status, `worker ${worker}: ${res.body}`).toBe(200)
        expect(JSON.parse(res.body)).toMatchObject({ status: 'ok' })
      }
    }
  })

  it('counts the hourly generate limit once for the whole service, whichever worker serves each request', async () => {
    const [a, b] = [...(await connectionsToEach(workerPids(), 2)).values()]
    // Alternate workers: neither alone sees more than two of the four requests.
    const order = [a![0]!, b![0]!, a![1]!, b![1]!]
    const client = { 'x-forwarded-for': '198.51.100.7' }
    const answers = []
    for (const conn of order) answers.push(await requestOver(conn.socket, 'POST', '/api/email/generate', client))
    expect(answers.map((a) => a.status), answers.map((a) => a.body).join('\n')).toEqual([200, 200, 200, 429])
    for (const ok of answers.slice(0, 3)) expect(JSON.parse(ok.body)).toMatchObject({ email: expect.stringMatching(`@${stack.mailDomain}$`) })
    expect(JSON.parse(answers[3]!.body)).toEqual({ code: 'rate_limited', error: `You can create at most ${MAX_PER_HOUR} addresses per hour. Please try again later.` })
    // Another client is not held to the first one's limit.
    expect((await freshRequest('POST', '/api/email/generate', { 'x-forwarded-for': '198.51.100.8' })).status).toBe(200)
  })

  it('shows a message sent over SMTP in the inbox', async () => {
    const generated = await freshRequest('POST', '/api/email/generate', { 'x-forwarded-for': '198.51.100.9' })
    expect(generated.status).toBe(200)
    const { email } = JSON.parse(generated.body) as { email: string }
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
    try {
      const info = await smtp.sendMail({ from: 'Acme <no-reply@acme.test>', to: email, subject: 'Welcome to Acme', text: 'Your code is 418207.' })
      expect(info.response).toMatch(/^250/)
    } finally {
      smtp.close()
    }
    // Each poll is a new connection: whichever worker answers must show it.
    await expect
      .poll(async () => {
        const res = await freshRequest('GET', `/api/email/${email}`)
        return (JSON.parse(res.body) as { messages?: { subject: string }[] }).messages?.map((m) => m.subject)
      })
      .toEqual(['Welcome to Acme'])
    for (let i = 0; i < 2 * WORKERS; i++) {
      const res = await freshRequest('GET', `/api/email/${email}`)
      expect((JSON.parse(res.body) as { messages: { subject: string }[] }).messages.map((m) => m.subject)).toEqual(['Welcome to Acme'])
    }
  })

  it('serves one /metrics adding up both workers, with database-wide gauges counted once', async () => {
    expect((await freshRequest('POST', '/api/email/generate', { 'x-forwarded-for': '198.51.100.77' })).status).toBe(200)
    const scrape = async () => (await fetch(`http://127.0.0.1:${stack.metricsPort}/metrics`)).text()
    const sample = (text: string, series: string) => Number(text.split('\n').find((l) => l.startsWith(`${series} `))?.slice(series.length + 1) ?? 0)
    const live = 'tempbox_http_request_duration_seconds_count{method="GET",route="/api/health/live",status="2xx"}'
    // The stack's own start-up waited on this route too.
    const before = sample(await scrape(), live)
    // Fresh connections: the primary hands them to the workers in turn, so both serve some.
    const requests = 12
    for (let i = 0; i < requests; i++) expect((await freshRequest('GET', '/api/health/live')).status).toBe(200)
    const text = await scrape()
    expect(sample(text, live) - before).toBe(requests)
    const { db } = createDb({ path: stack.dbPath })
    const active = await db.selectFrom('inbox').select((eb) => eb.fn.countAll<number>().as('n')).where('expires_at', '>', Date.now()).executeTakeFirstOrThrow()
    await db.destroy()
    expect(Number(active.n)).toBeGreaterThan(0)
    expect(sample(text, 'tempbox_active_addresses')).toBe(Number(active.n))
  })

  it('keeps answering when a worker is killed with SIGKILL, and starts a replacement', async () => {
    const before = workerPids()
    expect(before).toHaveLength(WORKERS)
    const [victim, survivor] = before as [number, number]
    process.kill(victim, 'SIGKILL')
    // Once the primary has reaped it, it has stopped handing it connections: the survivor answers them all.
    await expect.poll(() => readProcess(victim)).toBeNull()
    for (let i = 0; i < 10; i++) expect((await freshRequest('GET', '/api/health')).status).toBe(200)
    await expect.poll(() => workerPids().length).toBe(WORKERS)
    const after = workerPids()
    expect(after).toContain(survivor)
    const replacement = after.find((pid) => !before.includes(pid))
    expect(replacement).toBeDefined()
    // The replacement takes connections once it listens.
    const byWorker = await connectionsToEach([replacement!, survivor], 1)
    byWorker.get(survivor)!.forEach((conn) => conn.socket.destroy())
    expect((await requestOver(byWorker.get(replacement!)![0]!.socket, 'GET', '/api/health')).status).toBe(200)
    expect(stack.api.output()).toMatch(new RegExp(`worker ${victim} \\(\\w+\\) exited unexpectedly \\(signal SIGKILL\\)`))
  })

  it('stops every worker and exits with code 0 on SIGTERM', async () => {
    const workers = workerPids()
    expect(workers).toHaveLength(WORKERS)
    // Every process under the primary, workers and their helpers alike.
    const descendants = (pid: number): number[] => childProcesses(pid).flatMap((p) => [p.pid, ...descendants(p.pid)])
    const all = descendants(primaryPid)
    await stack.api.stop('SIGTERM')
    expect({ code: stack.api.child.exitCode, signal: stack.api.child.signalCode }).toEqual({ code: 0, signal: null })
    // The primary exits only after its workers have: none may be left behind.
    expect(workers.filter(isRunning)).toEqual([])
    // tsx's esbuild helpers end once their parent's pipe closes.
    await expect.poll(() => all.filter(isRunning)).toEqual([])
  })
})

describe('API shutdown', () => {
  it('stops on SIGTERM even while a client holds a connection open without sending a request', async () => {
    const single = await startStack()
    try {
      const silent = connect({ host: '127.0.0.1', port: single.httpPort })
      await new Promise<void>((ok, fail) => silent.once('connect', ok).once('error', fail))
      const closedByServer = new Promise<void>((ok) => silent.once('close', () => ok()))
      await single.api.stop('SIGTERM')
      expect({ code: single.api.child.exitCode, signal: single.api.child.signalCode }).toEqual({ code: 0, signal: null })
      await closedByServer
    } finally {
      await single.stop()
    }
  })
})
