import { describe, expect, it } from 'vitest'
import { Listing, ListingCache } from '../src/services/inboxes/inbox-listing.js'

const listing = (chars: number) => new Listing(JSON.stringify({ messages: [], pad: 'x'.repeat(chars) }))

describe('ListingCache', () => {
  it('holds no more bytes than its budget, dropping the least recently read first', () => {
    const one = listing(10_000).bytes
    const cache = new ListingCache(3 * one + 10)
    for (let id = 1; id <= 3; id++) cache.set(id, listing(10_000))
    expect(cache.get(1)).toBeDefined() // 1 is now the most recently read
    cache.set(4, listing(10_000))
    expect(cache.size).toBe(3)
    expect(cache.get(2)).toBeUndefined()
    expect([1, 3, 4].map((id) => cache.get(id) !== undefined)).toEqual([true, true, true])
    expect(cache.heldBytes).toBeLessThanOrEqual(3 * one + 10)
  })

  it('stays within budget however many inboxes are read, compressed forms included', () => {
    const budget = 200_000
    const cache = new ListingCache(budget)
    for (let id = 0; id < 5_000; id++) {
      cache.set(id, listing(2_000 + (id % 7) * 100))
      cache.get(id)?.encode('gzip, br')
      cache.get(id)?.encode('gzip')
      expect(cache.heldBytes).toBeLessThanOrEqual(budget)
    }
    expect(cache.size).toBeGreaterThan(10)
    expect(cache.size).toBeLessThan(100)
  })

  it('does not keep a listing larger than the whole budget', () => {
    const cache = new ListingCache(1_000)
    cache.set(1, listing(5_000))
    expect(cache.get(1)).toBeUndefined()
    expect(cache.heldBytes).toBe(0)
  })
})

describe('Listing', () => {
  it('matches If-None-Match weakly: its tag, its strong form, a list holding it, or *', () => {
    const l = listing(10)
    expect(l.matches(l.etag)).toBe(true)
    expect(l.matches(l.etag.slice(2))).toBe(true)
    expect(l.matches(`"a", ${l.etag}`)).toBe(true)
    expect(l.matches('*')).toBe(true)
    expect(l.matches('W/"a"')).toBe(false)
    expect(l.matches(undefined)).toBe(false)
    expect(listing(11).etag).not.toBe(l.etag)
  })
})
