import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { verifyWebhookSignature } from '../src/index.js'

const secret = 'whsec_3f9a1c0e7b2d4e6f8a0b1c2d3e4f5a6b'
const body = JSON.stringify({ type: 'message.received', deliveryId: '17', address: 'a@tempbox.test', message: { subject: 'Ünïcödé ✓' } })

/** Signed exactly as apps/api's webhook sender signs a delivery. */
function signed(timestamp: number, payload = body, key = secret): Record<string, string> {
  return {
    'Tempbox-Timestamp': String(timestamp),
    'Tempbox-Signature': `v1=${createHmac('sha256', key).update(`${timestamp}.${payload}`).digest('hex')}`,
  }
}
const now = () => Math.floor(Date.now() / 1000)

describe('verifyWebhookSignature', () => {
  it('accepts a delivery signed as the API signs it, with Node or fetch headers, string or bytes body', async () => {
    const headers = signed(now())
    expect(await verifyWebhookSignature({ secret, body, headers })).toBe(true)
    expect(await verifyWebhookSignature({ secret, body: new TextEncoder().encode(body), headers: new Headers(headers) })).toBe(true)
    // Node lowercases header names.
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
    expect(await verifyWebhookSignature({ secret, body, headers: lower })).toBe(true)
  })

  it('refuses a changed body, another secret, a changed timestamp, and a missing or malformed header', async () => {
    const t = now()
    expect(await verifyWebhookSignature({ secret, body: body.replace('17', '18'), headers: signed(t) })).toBe(false)
    expect(await verifyWebhookSignature({ secret: 'whsec_other', body, headers: signed(t) })).toBe(false)
    expect(await verifyWebhookSignature({ secret, body, headers: { ...signed(t), 'Tempbox-Timestamp': String(t - 1) } })).toBe(false)
    expect(await verifyWebhookSignature({ secret, body, headers: { 'Tempbox-Timestamp': String(t) } })).toBe(false)
    expect(await verifyWebhookSignature({ secret, body, headers: { 'Tempbox-Signature': signed(t)['Tempbox-Signature'] } })).toBe(false)
    const sig = signed(t)['Tempbox-Signature']!
    expect(await verifyWebhookSignature({ secret, body, headers: { ...signed(t), 'Tempbox-Signature': sig.slice(3) } })).toBe(false)
    expect(await verifyWebhookSignature({ secret, body, headers: { ...signed(t), 'Tempbox-Signature': `${sig}00` } })).toBe(false)
    expect(await verifyWebhookSignature({ secret, body, headers: { 'Tempbox-Timestamp': 'soon', 'Tempbox-Signature': sig } })).toBe(false)
  })

  it('refuses a timestamp older or further ahead than the tolerance, and accepts one within it', async () => {
    const t = now()
    expect(await verifyWebhookSignature({ secret, body, headers: signed(t - 301) })).toBe(false)
    expect(await verifyWebhookSignature({ secret, body, headers: signed(t + 301) })).toBe(false)
    expect(await verifyWebhookSignature({ secret, body, headers: signed(t - 290) })).toBe(true)
    expect(await verifyWebhookSignature({ secret, body, headers: signed(t - 3600), toleranceSeconds: 4000 })).toBe(true)
    expect(await verifyWebhookSignature({ secret, body, headers: signed(t - 60), toleranceSeconds: 30 })).toBe(false)
  })
})
