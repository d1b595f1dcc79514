import { createHmac } from 'node:crypto'

/**
 * A key every API node derives alike from the service's secret (JWT_SECRET, which every node must share anyway for
 * tokens to hold), one per purpose, so no key serves two ends. It never goes into the database: a copy of the
 * database alone cannot test an IP against the client keys stored there.
 */
export function deriveKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`tempbox:${purpose}`).digest()
}

/** What PostgreSQL stores for a client (an IP, or an IPv6 /64 from @tempbox/ip's clientKey): 128 bits of HMAC, never the IP. */
export function hashClient(key: Buffer, client: string): Buffer {
  return createHmac('sha256', key).update(client).digest().subarray(0, 16)
}

/** The key an account is counted under: an HMAC under a key derived from JWT_SECRET (deriveKey). */
export function accountKey(key: Buffer, normalisedEmail: string): string {
  return createHmac('sha256', key).update(normalisedEmail).digest('base64url')
}
