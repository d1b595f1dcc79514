import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countdown, messagePreview, parseSender, relativeTime } from './format'

describe('messagePreview', () => {
  it('keeps the first 100 characters followed by an ellipsis when the text was cut', () => {
    expect(messagePreview('x'.repeat(150))).toBe(`${'x'.repeat(100)}…`)
    expect(messagePreview('x'.repeat(100))).toBe(`${'x'.repeat(100)}…`)
  })
  it('gives a short preview no ellipsis, and flattens whitespace', () => {
    expect(messagePreview('Hi\n\n  there')).toBe('Hi there')
    expect(messagePreview('It works...')).toBe('It works...')
    expect(messagePreview('See https://example.com/issue/42 for details')).toBe('See https://example.com/issue/42 for details')
  })
  it('counts characters, not bytes', () => {
    expect(messagePreview('é'.repeat(120))).toBe(`${'é'.repeat(100)}…`)
  })
  it('has nothing to preview for a body without text', () => {
    expect(messagePreview('')).toBeNull()
    expect(messagePreview(' \n\t ')).toBeNull()
  })
})

describe('relativeTime', () => {
  const now = Date.parse('2026-01-02T12:00:00Z')
  it.each([
    [0, { value: 0, unit: 's' }],
    [59_000, { value: 59, unit: 's' }],
    [60_000, { value: 1, unit: 'm' }],
    [59 * 60_000 + 59_000, { value: 59, unit: 'm' }],
    [3600_000, { value: 1, unit: 'h' }],
    [23 * 3600_000, { value: 23, unit: 'h' }],
    [24 * 3600_000, { value: 1, unit: 'd' }],
    [3 * 24 * 3600_000 + 5, { value: 3, unit: 'd' }],
  ])('%i ms ago → %o', (ago, expected) => {
    expect(relativeTime(new Date(now - ago).toISOString(), now)).toEqual(expected)
  })
  it('treats a time in the future as 0 s', () => {
    expect(relativeTime(now + 5000, now)).toEqual({ value: 0, unit: 's' })
  })
})

describe('countdown', () => {
  it('formats hours, minutes and seconds', () => {
    expect(countdown(1000 + 23 * 3600_000 + 59 * 60_000 + 7_000, 1000)).toBe('23:59:07')
    expect(countdown(0, 5000)).toBe('00:00:00')
  })
})

describe('parseSender', () => {
  it('splits "Name <address>"', () => {
    expect(parseSender('Alice Example <alice@example.com>')).toEqual({ name: 'Alice Example', address: 'alice@example.com' })
    expect(parseSender('"Bob" <bob@example.com>')).toEqual({ name: 'Bob', address: 'bob@example.com' })
  })
  it('keeps a bare address', () => {
    expect(parseSender('carol@example.com')).toEqual({ name: null, address: 'carol@example.com' })
  })

  /** The pattern parseSender replaced (cubic on blanks), the oracle it must agree with on short senders. */
  function oldParseSender(sender: string): { name: string | null; address: string } {
    const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(sender)
    if (!match) return { name: null, address: sender.trim() }
    return { name: match[1] ? match[1] : null, address: match[2]! }
  }

  it('agrees with the pattern it replaced on random senders made of the characters that matter', () => {
    const pieces = ['"', '<', '>', ' ', '\t', '\u00a0', 'Ann', 'a@b.test', '@', ',', '\n', 'é']
    const sender = fc.oneof(fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((a) => a.join('')), fc.string({ maxLength: 30 }))
    fc.assert(
      fc.property(sender, (s) => {
        expect(parseSender(s)).toEqual(oldParseSender(s))
      }),
      { numRuns: 5_000 },
    )
  })

  it('reads a sender of 100,000 blanks that ends in no address in one pass', () => {
    // The old pattern took about a second for 2,000 blanks and a minute for 8,000; this one is linear.
    const blanks = ' '.repeat(100_000)
    expect(parseSender(`${blanks}x`)).toEqual({ name: null, address: 'x' })
    expect(parseSender(`${blanks}<a`)).toEqual({ name: null, address: '<a' })
    expect(parseSender(`"${blanks}Ann${blanks}" <ann@example.test>`)).toEqual({ name: `${blanks}Ann${blanks}`, address: 'ann@example.test' })
  })
})
