import { createHmac } from 'node:crypto'
import type { Dispatcher, Pool } from 'undici'
import type { ResolvedTarget } from './webhook-target.js'

/** `v1=` + hex HMAC-SHA256 over `<timestamp>.<body>`: binding the time stops an old delivery being replayed later. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}

export interface SendResult {
  /** The HTTP status, or null when there was no answer. */
  statusCode: number | null
  error: string | null
}

/** Idle kept-alive connections to one target are closed after this long. */
const IDLE_SOCKET_MS = 4_000
/** Connections to one target at once: the delivery loop's concurrency bounds the total anyway. */
const SOCKETS_PER_TARGET = 8
/** Targets whose kept-alive connections are remembered; the least recently used one is closed past this. */
const MAX_TARGETS = 256
/** A response body is read (and thrown away) up to this many bytes so its connection can be used again; past it, closed. */
const MAX_DRAINED_BYTES = 64 * 1024

let undici: Promise<typeof import('undici')> | null = null
/** undici costs ~6.6 MB of heap once loaded: a process that never delivers a webhook never loads it. */
const loadUndici = () => (undici ??= import('undici'))

/**
 * Kept-alive connections per target (an undici Pool each), so that a receiver getting one delivery after another is
 * not paid a TCP (and TLS) handshake on each, by either side. A target is the URL's origin together with the address
 * checked for it: a pool connects only to that address, never resolving the name again (a second lookup could answer
 * differently: DNS rebinding), while TLS still sends and verifies the URL's host name. A name that now resolves
 * elsewhere gets a pool of its own. undici rather than node:http: per POST it costs about a quarter less CPU (no
 * request and response stream objects), and the delivery's CPU counts against ingest's on a shared machine.
 */
export class TargetPools {
  private readonly pools = new Map<string, Pool>()

  async get(url: URL, target: ResolvedTarget): Promise<Pool> {
    const { buildConnector, Pool } = await loadUndici()
    const key = `${url.protocol}//${url.host} ${target.address}`
    let pool = this.pools.get(key)
    if (pool) this.pools.delete(key)
    else {
      const connect = buildConnector({})
      pool = new Pool(url.origin, {
        connections: SOCKETS_PER_TARGET,
        pipelining: 1,
        keepAliveTimeout: IDLE_SOCKET_MS,
        keepAliveMaxTimeout: IDLE_SOCKET_MS,
        // The socket goes to the address checked; the TLS server name (and certificate check) stays the URL's host.
        // Past this the connection is closed (the status already counted): a receiver cannot keep it busy with a long answer.
        maxResponseSize: MAX_DRAINED_BYTES,
        connect: (options, callback) => connect({ ...options, hostname: target.address }, callback),
      })
      if (this.pools.size >= MAX_TARGETS) {
        const [oldest, old] = this.pools.entries().next().value!
        this.pools.delete(oldest)
        old.destroy().catch(() => undefined)
      }
    }
    // Map order is insertion order: re-inserting keeps the most recently used last.
    this.pools.set(key, pool)
    return pool
  }

  async destroy(): Promise<void> {
    const pools = [...this.pools.values()]
    this.pools.clear()
    await Promise.all(pools.map((p) => p.destroy().catch(() => undefined)))
  }
}

/**
 * POSTs `body` to `url` over `pool` (one of TargetPools, bound to the address checked). No redirect is followed (a 3xx
 * is a failed attempt: a pool never follows one) and the response body is never stored: only its status counts. The
 * body is read past (up to MAX_DRAINED_BYTES) so the connection can carry the next delivery.
 */
export function postWebhook(url: URL, pool: Dispatcher, body: string, headers: Record<string, string>, timeoutMs: number): Promise<SendResult> {
  return new Promise<SendResult>((resolve) => {
    let settled = false
    let abort: ((reason: Error) => void) | null = null
    const settle = (result: SendResult) => {
      if (settled) return
      settled = true
      resolve(result)
    }
    // One budget for the whole exchange, the body read past included: a receiver trickling it cannot hold the connection.
    const timer = setTimeout(() => {
      settle({ statusCode: null, error: `No answer within ${timeoutMs} ms.` })
      abort?.(new Error('timed out'))
    }, timeoutMs)
    const handler: Dispatcher.DispatchHandler = {
      onConnect(abortRequest) {
        abort = abortRequest
        if (settled) abortRequest(new Error('timed out'))
      },
      onHeaders(statusCode) {
        settle({ statusCode, error: null })
        return true
      },
      onData() {
        return true
      },
      onComplete() {
        clearTimeout(timer)
      },
      onError(error) {
        clearTimeout(timer)
        settle({ statusCode: null, error: error.message })
      },
    }
    try {
      pool.dispatch({ path: url.pathname + url.search, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body }, handler)
    } catch (error) {
      clearTimeout(timer)
      settle({ statusCode: null, error: error instanceof Error ? error.message : String(error) })
    }
  })
}
