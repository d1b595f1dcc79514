import { createHmac } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
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

/**
 * Kept-alive connections per target, so that a receiver getting one delivery after another is not paid a TCP (and TLS)
 * handshake on each, by either side. A target is the URL's origin together with the address checked for it: a
 * connection is only ever reused for the address it was opened to, and a name that now resolves elsewhere gets its own.
 */
export class TargetAgents {
  private readonly agents = new Map<string, http.Agent>()

  get(url: URL, target: ResolvedTarget): http.Agent {
    const key = `${url.protocol}//${url.host} ${target.address}`
    let agent = this.agents.get(key)
    if (agent) this.agents.delete(key)
    else {
      const options = { keepAlive: true, maxSockets: SOCKETS_PER_TARGET, maxFreeSockets: SOCKETS_PER_TARGET, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' as const }
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options)
      if (this.agents.size >= MAX_TARGETS) {
        const [oldest, old] = this.agents.entries().next().value!
        this.agents.delete(oldest)
        old.destroy()
      }
    }
    // Map order is insertion order: re-inserting keeps the most recently used last.
    this.agents.set(key, agent)
    return agent
  }

  destroy(): void {
    for (const agent of this.agents.values()) agent.destroy()
    this.agents.clear()
  }
}

/**
 * POSTs `body` to `url`, connecting only to `target` (the address checked beforehand) while TLS still verifies the
 * certificate for the URL's host name. No redirect is followed (a 3xx is a failed attempt) and the response body is
 * never stored: only its status counts. The body is read past (up to MAX_DRAINED_BYTES) so the connection can carry
 * the next delivery.
 */
export function postWebhook(url: URL, target: ResolvedTarget, agent: http.Agent, body: string, headers: Record<string, string>, timeoutMs: number): Promise<SendResult> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [target])
    else callback(null, target.address, target.family)
  }
  const client = url.protocol === 'https:' ? https : http
  return new Promise<SendResult>((resolve) => {
    let settled = false
    const settle = (result: SendResult) => {
      if (settled) return
      settled = true
      resolve(result)
    }
    const request = client.request(
      url,
      {
        method: 'POST',
        agent,
        lookup: pinned,
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        settle({ statusCode: response.statusCode ?? null, error: null })
        let drained = 0
        response.on('data', (chunk: Buffer) => {
          drained += chunk.length
          if (drained > MAX_DRAINED_BYTES) request.destroy()
        })
        response.on('error', () => undefined)
      },
    )
    // One budget for the whole exchange, the body read past included: a receiver trickling it cannot hold the connection.
    const timer = setTimeout(() => {
      settle({ statusCode: null, error: `No answer within ${timeoutMs} ms.` })
      request.destroy()
    }, timeoutMs)
    request.on('close', () => clearTimeout(timer))
    request.on('error', (error) => settle({ statusCode: null, error: error.message }))
    request.end(body)
  })
}
