export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>

export interface VerifyWebhookOptions {
  /** The `secret` the API answered when the webhook was set. */
  secret: string
  /** The request body exactly as received, before any JSON parsing. */
  body: string | Uint8Array
  /** The request's headers: a fetch `Headers`, or Node's `req.headers` (any case). */
  headers: WebhookHeaders
  /** A delivery signed longer ago (or further ahead) than this is refused, so a captured one cannot be replayed. */
  toleranceSeconds?: number
}

const encoder = new TextEncoder()

/**
 * Whether the delivery carries a valid `Tempbox-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<body>">` made within
 * `toleranceSeconds` of now. Async: it uses Web Crypto, so it runs unchanged in Node 20+, browsers and edge runtimes.
 */
export async function verifyWebhookSignature(options: VerifyWebhookOptions): Promise<boolean> {
  const { secret, body, headers, toleranceSeconds = 300 } = options
  const timestamp = header(headers, 'tempbox-timestamp')
  const given = header(headers, 'tempbox-signature')
  if (timestamp === undefined || given === undefined || !/^\d{1,12}$/.test(timestamp)) return false
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const bodyBytes = typeof body === 'string' ? encoder.encode(body) : body
  const prefix = encoder.encode(`${timestamp}.`)
  const signed = new Uint8Array(prefix.length + bodyBytes.length)
  signed.set(prefix)
  signed.set(bodyBytes, prefix.length)
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, signed))
  const expected = `v1=${Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')}`
  return constantTimeEqual(given.trim(), expected)
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value
  }
  return undefined
}

/** Compares every character whatever the first difference, so the time taken tells nothing about the expected MAC. */
function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length
  for (let i = 0; i < b.length; i++) diff |= (a.charCodeAt(i) || 0) ^ b.charCodeAt(i)
  return diff === 0
}
