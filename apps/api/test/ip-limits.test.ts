import { describe, expect, it } from 'vitest'
import { AddressLimiter } from '../src/service-state/in-process-address-limits.js'

/** A new address for each reservation: a place is held by address. */
let made = 0
const fresh = () => `a${++made}@tempbox.test`

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const T0 = Date.UTC(2026, 10, 23, 9, 0, 0)

/** The code a reservation at `now` is refused with, or 'ok'. The clock is passed in: no test waits for an hour. */
function attempt(limiter: AddressLimiter, ip: string, now: number, expiresAt = now + DAY, address = fresh()): string {
  try {
    limiter.reserve(ip, address, expiresAt, now)
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
    limiter.reserve('203.0.113.7', fresh(), T0 + DAY, T0)
    limiter.reserve('203.0.113.7', fresh(), T0 + DAY, T0)
    expect(() => limiter.reserve('203.0.113.7', fresh(), T0 + DAY, T0)).toThrow('You can create at most 2 addresses per hour. Please try again later.')
  })
})

describe('AddressLimiter: active addresses', () => {
  it('frees a place when an address expires (at its expiry, not before), or when it is released', () => {
    const limiter = new AddressLimiter(2, 100)
    const ip = '203.0.113.8'
    expect(attempt(limiter, ip, T0, T0 + HOUR)).toBe('ok')
    expect(attempt(limiter, ip, T0, T0 + 2 * HOUR)).toBe('ok')
    expect(attempt(limiter, ip, T0 + HOUR - 1)).toBe('too_many_active_addresses')
    expect(attempt(limiter, ip, T0 + HOUR, T0 + 3 * HOUR, 'third@tempbox.test')).toBe('ok')
    expect(attempt(limiter, ip, T0 + HOUR + 1)).toBe('too_many_active_addresses')
    limiter.moveEnd('third@tempbox.test', T0 + HOUR + 1)
    expect(attempt(limiter, ip, T0 + HOUR + 2)).toBe('ok')
  })

  it('release gives back both places; an early end keeps the hourly count', () => {
    const limiter = new AddressLimiter(1, 1)
    const ip = '203.0.113.9'
    limiter.reserve(ip, 'never@tempbox.test', T0 + DAY, T0)
    limiter.release(ip, 'never@tempbox.test', T0)
    expect(attempt(limiter, ip, T0 + 1, T0 + 1 + DAY, 'made@tempbox.test')).toBe('ok')
    limiter.moveEnd('made@tempbox.test', T0 + 1)
    expect(attempt(limiter, ip, T0 + 2)).toBe('rate_limited')
  })

  it('forgets a client once a release or an early end leaves nothing of theirs, at its next check', () => {
    const limiter = new AddressLimiter(5, 5)
    const { entries, holders } = limiter as unknown as { entries: Map<string, unknown>; holders: Map<string, string> }
    limiter.reserve('203.0.113.22', 'never@tempbox.test', T0 + DAY, T0)
    limiter.release('203.0.113.22', 'never@tempbox.test', T0)
    expect(entries.size).toBe(0)
    // Nor does it keep which client held the address.
    expect(holders.size).toBe(0)
    limiter.reserve('203.0.113.23', 'kept@tempbox.test', T0 + DAY, T0)
    // A check past the hour drops the hourly count; freeing the one live address then leaves nothing.
    limiter.check('203.0.113.23', T0 + HOUR + 1)
    expect(entries.size).toBe(1)
    limiter.moveEnd('kept@tempbox.test', T0 + HOUR + 1)
    limiter.check('203.0.113.23', T0 + HOUR + 1)
    expect(entries.size).toBe(0)
  })

  it('forgets a client once nothing of theirs limits anything (sweep)', () => {
    const limiter = new AddressLimiter(5, 5)
    limiter.reserve('203.0.113.10', fresh(), T0 + HOUR, T0)
    const entries = (limiter as unknown as { entries: Map<string, unknown> }).entries
    limiter.sweep(T0 + HOUR - 1)
    expect(entries.size).toBe(1)
    limiter.sweep(T0 + HOUR + 1)
    expect(entries.size).toBe(0)
  })
})

describe('AddressLimiter: what a client keeps after release, an early end and sweep', () => {
  it('says how many active addresses in its refusal', () => {
    const limiter = new AddressLimiter(2, 100)
    limiter.reserve('203.0.113.11', fresh(), T0 + DAY, T0)
    limiter.reserve('203.0.113.11', fresh(), T0 + DAY, T0)
    expect(() => limiter.reserve('203.0.113.11', fresh(), T0 + DAY, T0)).toThrow(
      'You already have 2 active addresses. Release one you no longer need, or wait until one expires.',
    )
  })

  it('release and moveEnd of what it holds nothing for (never seen, or swept) change nothing and do not throw', () => {
    const limiter = new AddressLimiter(1, 1)
    expect(() => limiter.release('203.0.113.12', 'unknown@tempbox.test', T0)).not.toThrow()
    expect(() => limiter.moveEnd('unknown@tempbox.test', T0)).not.toThrow()
    expect(attempt(limiter, '203.0.113.12', T0)).toBe('ok')
    expect(attempt(limiter, '203.0.113.12', T0 + 1)).toBe('rate_limited')
  })

  it('a reservation released twice gives back one place, not another address’s', () => {
    const limiter = new AddressLimiter(2, 100)
    const ip = '203.0.113.13'
    limiter.reserve(ip, fresh(), T0 + DAY, T0)
    limiter.reserve(ip, 'never@tempbox.test', T0 + 2 * DAY, T0 + 1)
    limiter.release(ip, 'never@tempbox.test', T0 + 1)
    limiter.release(ip, 'never@tempbox.test', T0 + 1)
    expect(attempt(limiter, ip, T0 + 2, T0 + 3 * DAY)).toBe('ok')
    expect(attempt(limiter, ip, T0 + 3)).toBe('too_many_active_addresses')
  })

  it('a reservation released twice gives back one hourly place, not an earlier creation’s', () => {
    const limiter = new AddressLimiter(100, 2)
    const ip = '203.0.113.24'
    limiter.reserve(ip, fresh(), T0 + DAY, T0)
    limiter.reserve(ip, 'never@tempbox.test', T0 + DAY, T0 + 1)
    limiter.release(ip, 'never@tempbox.test', T0 + 1)
    limiter.release(ip, 'never@tempbox.test', T0 + 1)
    expect(attempt(limiter, ip, T0 + 2)).toBe('ok')
    expect(attempt(limiter, ip, T0 + 3)).toBe('rate_limited')
  })

  it('an expired address issued again to another client counts as theirs, however the first client’s check forgets its own hold', () => {
    const limiter = new AddressLimiter(1, 100)
    const [first, second] = ['203.0.113.25', '203.0.113.26']
    limiter.reserve(first, 'again@tempbox.test', T0 + 10 * MINUTE, T0)
    // Expired, then chosen again by another client, who keeps it longer.
    limiter.reserve(second, 'again@tempbox.test', T0 + DAY, T0 + 20 * MINUTE)
    expect(attempt(limiter, first, T0 + 30 * MINUTE)).toBe('ok')
    limiter.moveEnd('again@tempbox.test', T0 + 3 * DAY)
    expect(attempt(limiter, second, T0 + 2 * DAY)).toBe('too_many_active_addresses')
  })

  it('releasing one of two reservations keeps the other one counting, hourly and active', () => {
    const hourly = new AddressLimiter(100, 2)
    hourly.reserve('203.0.113.14', fresh(), T0 + DAY, T0)
    hourly.reserve('203.0.113.14', 'never@tempbox.test', T0 + DAY, T0 + 1)
    hourly.release('203.0.113.14', 'never@tempbox.test', T0 + 1)
    expect(attempt(hourly, '203.0.113.14', T0 + 2)).toBe('ok')
    expect(attempt(hourly, '203.0.113.14', T0 + 3)).toBe('rate_limited')

    const active = new AddressLimiter(2, 100)
    active.reserve('203.0.113.15', fresh(), T0 + DAY, T0)
    active.reserve('203.0.113.15', 'released@tempbox.test', T0 + DAY, T0 + 1)
    active.moveEnd('released@tempbox.test', T0 + 1)
    expect(attempt(active, '203.0.113.15', T0 + 2)).toBe('ok')
    expect(attempt(active, '203.0.113.15', T0 + 3)).toBe('too_many_active_addresses')
  })

  it('a release after the hour keeps the client’s older address that is still alive', () => {
    const limiter = new AddressLimiter(2, 100)
    const ip = '203.0.113.19'
    limiter.reserve(ip, fresh(), T0 + DAY, T0)
    // Its hourly count has run out; the address of the reservation given back here was never created.
    limiter.reserve(ip, 'never@tempbox.test', T0 + DAY, T0 + HOUR + 1)
    limiter.release(ip, 'never@tempbox.test', T0 + HOUR + 1)
    expect(attempt(limiter, ip, T0 + HOUR + 2)).toBe('ok')
    expect(attempt(limiter, ip, T0 + HOUR + 3)).toBe('too_many_active_addresses')
  })

  it('a release keeps the hour’s count of an address that has already expired', () => {
    const limiter = new AddressLimiter(100, 2)
    const ip = '203.0.113.20'
    limiter.reserve(ip, fresh(), T0 + 10 * MINUTE, T0)
    limiter.reserve(ip, 'never@tempbox.test', T0 + DAY, T0 + 20 * MINUTE)
    limiter.release(ip, 'never@tempbox.test', T0 + 20 * MINUTE)
    expect(attempt(limiter, ip, T0 + 21 * MINUTE)).toBe('ok')
    expect(attempt(limiter, ip, T0 + 22 * MINUTE)).toBe('rate_limited')
  })

  it('an early end after the hour keeps the client’s other address that is still alive', () => {
    const limiter = new AddressLimiter(2, 100)
    const ip = '203.0.113.21'
    limiter.reserve(ip, 'released@tempbox.test', T0 + DAY, T0)
    limiter.reserve(ip, fresh(), T0 + 2 * DAY, T0)
    expect(attempt(limiter, ip, T0 + HOUR + 1)).toBe('too_many_active_addresses')
    limiter.moveEnd('released@tempbox.test', T0 + HOUR + 1)
    expect(attempt(limiter, ip, T0 + HOUR + 2)).toBe('ok')
    expect(attempt(limiter, ip, T0 + HOUR + 3)).toBe('too_many_active_addresses')
  })

  it('ending the last active address early keeps the hourly count', () => {
    const limiter = new AddressLimiter(5, 2)
    const ip = '203.0.113.16'
    limiter.reserve(ip, 'released@tempbox.test', T0 + DAY, T0)
    limiter.moveEnd('released@tempbox.test', T0)
    expect(attempt(limiter, ip, T0 + 1)).toBe('ok')
    expect(attempt(limiter, ip, T0 + 2)).toBe('rate_limited')
  })

  it('the sweep keeps an address alive past its hour, and an hour’s count past its addresses’ expiry', () => {
    const longLived = new AddressLimiter(1, 100)
    longLived.reserve('203.0.113.17', fresh(), T0 + DAY, T0)
    longLived.sweep(T0 + HOUR + 1)
    expect(attempt(longLived, '203.0.113.17', T0 + HOUR + 2)).toBe('too_many_active_addresses')

    const shortLived = new AddressLimiter(100, 1)
    shortLived.reserve('203.0.113.18', fresh(), T0 + 10 * MINUTE, T0)
    shortLived.sweep(T0 + 20 * MINUTE)
    expect(attempt(shortLived, '203.0.113.18', T0 + 30 * MINUTE)).toBe('rate_limited')
  })
})
