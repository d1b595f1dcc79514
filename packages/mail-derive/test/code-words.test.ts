import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import './fast-check-seed.js'
import { CODE_WORDS, codeWordPattern } from '../src/code-words.js'

/** The plain alternation the grouped pattern replaces: every word, longest first. */
const flat = new RegExp(CODE_WORDS.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).sort((a, b) => b.length - a.length).join('|'), 'giu')
const grouped = codeWordPattern(CODE_WORDS)
const matches = (re: RegExp, text: string) => [...text.matchAll(re)].map((m) => [m.index, m[0]])

describe('the code-word pattern', () => {
  it('finds each word, in any case, as the longest word at its place', () => {
    expect(matches(grouped, 'Your VERIFICATION Code: 1; Verificatiecode 2; mã xác minh; SIGN IN')).toEqual([
      [5, 'VERIFICATION'], [18, 'Code'], [27, 'Verificatiecode'], [46, 'mã xác minh'], [59, 'SIGN IN'],
    ])
  })

  it('finds what the plain alternation of the words finds, in texts made of their pieces', () => {
    // Pieces of words (prefixes, suffixes, case changed) run together with separators: overlaps and near misses.
    const piece = fc.tuple(fc.constantFrom(...CODE_WORDS), fc.nat(20), fc.nat(20), fc.boolean()).map(([w, a, b, upper]) => {
      const part = w.slice(Math.min(a, w.length - 1), w.length - Math.min(b, w.length - 1) || w.length)
      return upper ? part.toUpperCase() : part
    })
    const text = fc.array(fc.oneof(piece, fc.constantFrom(' ', '-', 'x', 'İ', 'ſ', 'K', 'ς', 'Σ', '\n', '')), { maxLength: 40 }).map((parts) => parts.join(''))
    fc.assert(fc.property(text, (t) => {
      expect(matches(grouped, t)).toEqual(matches(flat, t))
    }), { numRuns: 3000 })
  })
})
