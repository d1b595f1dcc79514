import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { previewOf } from '../src/index.js'

/** The preview's definition, as it was first written (a regular expression and an array of code points). */
function reference(content: string, chars: number): string {
  const head = content.slice(0, chars * 8).replace(/\s+/g, ' ').trim()
  const points = Array.from(head)
  return points.length <= chars ? head : points.slice(0, chars).join('').trimEnd()
}

const SPACES = [' ', '\t', '\n', '\r\n', '\v', '\f', '\u00a0', '\u1680', '\u2003', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u200b', '\u0085']
const PIECES = [...SPACES, 'a', 'word', 'Grüße', '😀', '\ud83d', '\ude00', '日本語', 'x'.repeat(99)]

describe('previewOf', () => {
  it('collapses whitespace, trims and cuts at a number of code points', () => {
    expect(previewOf('  Hello \r\n\r\n  world\t ', 100)).toBe('Hello world')
    expect(previewOf('😀'.repeat(150), 100)).toBe('😀'.repeat(100))
    expect(previewOf(`${'a'.repeat(99)} b`, 100)).toBe('a'.repeat(99))
    expect(previewOf(' \u3000\ufeff', 100)).toBe('')
  })

  it('gives what its definition gives, on whitespace of every kind, surrogates whole and lone, and cuts anywhere', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 400 }).map((a) => a.join('')), fc.integer({ min: 1, max: 120 }), (content, chars) => {
        expect(previewOf(content, chars)).toBe(reference(content, chars))
      }),
      { numRuns: 300 },
    )
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 1200 }), (content) => {
        expect(previewOf(content, 100)).toBe(reference(content, 100))
      }),
      { numRuns: 300 },
    )
    // Generated strings of up to a few KB: seconds on a loaded shared machine.
  }, 60_000)
})
