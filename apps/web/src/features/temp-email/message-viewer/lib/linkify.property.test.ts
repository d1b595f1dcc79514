import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { linkify } from './linkify'

/** What mail text holds around links, and what an attacker would repeat to make a scanner backtrack. */
const PIECES = [
  'https://', 'http://', 'HTTPS://', 'www.', 'acme.test', '/verify?t=1', '.', '....', ',', ')', '(', ']', '"', "'", '<', '>', '`',
  ' ', '\n', '\t', '\u00a0', 'é', '»', '”', 'javascript:alert(1)', 'ftp://x.test', '//', 'a', '?', '#', '&amp;',
]
const mailText = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...PIECES), { maxLength: 120 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...PIECES), fc.integer({ min: 1, max: 20_000 })).map(([p, n]) => `https://x.test/${p.repeat(n)}`) },
)

describe('linkify on random and adversarial text', () => {
  it('keeps every character, in order, and makes only http(s) links of URL characters', () => {
    fc.assert(
      fc.property(mailText, (text) => {
        const pieces = linkify(text)
        expect(pieces.map((p) => p.text).join('')).toBe(text)
        for (const [i, piece] of pieces.entries()) {
          // Consecutive text would mean a piece was split for nothing.
          if (i > 0) expect(piece.kind === 'text' && pieces[i - 1]!.kind === 'text').toBe(false)
          if (piece.kind !== 'link') continue
          expect(piece.href).toMatch(/^https?:\/\//i)
          expect(piece.text).not.toMatch(/[\s<>"'`]/)
          expect(piece.href.endsWith(piece.text)).toBe(true)
        }
      }),
      { numRuns: 500 },
    )
    // Hundreds of texts of up to ~100 KB: seconds on a loaded shared machine.
  }, 60_000)
})
