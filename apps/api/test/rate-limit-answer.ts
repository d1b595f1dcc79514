import { expect } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'

/** The body every per-route limit (`config.rateLimit`) answers with once a client is over it. */
export const RATE_LIMITED = { error: 'Too many requests. Please wait a moment and try again.', code: 'rate_limited' }

/**
 * Asserts the whole refusal a client over a per-route limit sees: 429, the sentence and code, and a Retry-After in
 * whole seconds that is positive and no longer than the route's window.
 */
export function expectRateLimited(res: LightMyRequestResponse, windowSeconds: number): void {
  expect(res.statusCode).toBe(429)
  expect(res.json()).toEqual(RATE_LIMITED)
  const retryAfter = String(res.headers['retry-after'])
  expect(retryAfter).toMatch(/^\d+$/)
  expect(Number(retryAfter)).toBeGreaterThan(0)
  expect(Number(retryAfter)).toBeLessThanOrEqual(windowSeconds)
}
