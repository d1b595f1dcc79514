import { describe, expect, it } from 'vitest'
import { AddressLimiter } from '../src/services/limits/ip-limits.js'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const T0 = Date.UTC(2026, 10, 23, 9, 0, 0)

/** The code a reservation at `now` is refused with, or 'ok'. The clock is passed in: no test waits for an hour. */
function attempt(limiter: AddressLimiter, ip: string, now: number, expiresAt = now + DAY): string {
  try {
    limiter.reserve(ip, expiresAt, now)
    return 'ok'
  } catch (error) {
    return (error as { code: string }).code
  }
}

describe('AddressLimiter: the hourly window', () => {
  it('rolls: each creation stops counting exactly one hour after it is made, not at a fixed hour boundary', () => {
    const limiter = new AddressLimiter(100, 3)
    const ip = '203.0.113.7'
    expect([T0, T0 + 10 * MINUTE, T0 + 20 * MINUTE].map((t) => attempt(limiter, ip, t))).toEqual(['ok', 'ok', 'ok'])
    expect(attempt(limiter, ip, T0 + 30 * MINUTE)).toBe('rate_limited')
    // One millisecond before T0 + 1 h the first still counts; at T0 + 1 h it has left the window.
    expect(attempt(limiter, ip, T0 + HOUR - 1)).toBe('rate_limited')
    expect(attempt(limiter, ip, T0 + HOUR)).toBe('ok')
    expect(attempt(limiter, ip, T0 + HOUR + 1)).toBe('rate_limited')
    expect(attempt(limiter, ip, T0 + 10 * MINUTE + HOUR)).toBe('ok')
    expect(attempt(limiter, ip, T0 + 3 * HOUR)).toBe('ok')
  })

  it('counts each client apart', () => {
    const limiter = new AddressLimiter(100, 1)
    expect(attempt(limiter, '203.0.113.7', T0)).toBe('ok')
    expect(attempt(limiter, '203.0.113.7', T0 + 1)).toBe('rate_limited')
    expect(attempt(limiter, '198.51.100.7', T0 + 1)).toBe('ok')
    expect(attempt(limiter, '2001:db8::7', T0 + 1)).toBe('ok')
  })

  it('says how many per hour in its refusal', () => {
    const limiter = new AddressLimiter(100, 2)
    limiter.reserve('203.0.113.7', T0 + DAY, T0)
    limiter.reserve('203.0.113.7', T0 + DAY, T0)
    expect(() => limiter.reserve('203.0.113.7', T0 + DAY, T0)).toThrow('You can create at most 2 addresses per hour. Please try again later.')
  })
})

describe('AddressLimiter: active addresses', () => {
  it('frees a place when an address expires (at its expiry, not before), or when it is released', () => {
    const limiter = new AddressLimiter(2, 100)
    const ip = '203.0.113.8'
    expect(attempt(limiter, ip, T0, T0 + HOUR)).toBe('ok')
    expect(attempt(limiter, ip, T0, T0 + 2 * HOUR)).toBe('ok')
    expect(attempt(limiter, ip, T0 + HOUR - 1)).toBe('too_many_active_addresses')
    expect(attempt(limiter, ip, T0 + HOUR, T0 + 3 * HOUR)).toBe('ok')
    expect(attempt(limiter, ip, T0 + HOUR + 1)).toBe('too_many_active_addresses')
    limiter.free(ip, T0 + 3 * HOUR)
    expect(attempt(limiter, ip, T0 + HOUR + 2)).toBe('ok')
  })

  it('release gives back both places; free keeps the hourly count', () => {
    const limiter = new AddressLimiter(1, 1)
    const ip = '203.0.113.9'
    limiter.reserve(ip, T0 + DAY, T0)
    limiter.release(ip, T0 + DAY, T0)
    expect(attempt(limiter, ip, T0 + 1)).toBe('ok')
    limiter.free(ip, T0 + 1 + DAY)
    expect(attempt(limiter, ip, T0 + 2)).toBe('rate_limited')
  })

  it('forgets a client once nothing of theirs limits anything (sweep)', () => {
    const limiter = new AddressLimiter(5, 5)
    limiter.reserve('203.0.113.10', T0 + HOUR, T0)
    const entries = (limiter as unknown as { entries: Map<string, unknown> }).entries
    limiter.sweep(T0 + HOUR - 1)
    expect(entries.size).toBe(1)
    limiter.sweep(T0 + HOUR + 1)
    expect(entries.size).toBe(0)
  })
})
