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

/**
 * POSTs `body` to `url`, connecting only to `target` (the address checked beforehand) while TLS still verifies the
 * certificate for the URL's host name. No redirect is followed (a 3xx is a failed attempt) and the response body is
 * never read: only its status counts, and the connection is closed once it is known.
 */
export function postWebhook(url: URL, target: ResolvedTarget, body: string, headers: Record<string, string>, timeoutMs: number): Promise<SendResult> {
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
      clearTimeout(timer)
      resolve(result)
    }
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: pinned,
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' },
      },
      (response) => {
        settle({ statusCode: response.statusCode ?? null, error: null })
        response.destroy()
        request.destroy()
      },
    )
    const timer = setTimeout(() => {
      settle({ statusCode: null, error: `No answer within ${timeoutMs} ms.` })
      request.destroy()
    }, timeoutMs)
    request.on('error', (error) => settle({ statusCode: null, error: error.message }))
    request.end(body)
  })
}
