import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_DERIVE_LIMITS as L,
  decodeBasicEntities,
  deriveMessage,
  extractCodes,
  extractLinks,
  htmlToText,
  previewOf,
  sanitizeMailHtml,
  scanHtml,
} from '../src/index.js'
import { MAY_HOLD_CANDIDATE } from '../src/verification.js'
import { activeParts } from './active-parts.js'

/** Pieces attackers and broken mailers put in mail: fast-check strings are mostly built from these. */
const PIECES = [
  '<a href="', '<a href=https://x.test/verify>', '</a>', '<div>', '</div>', '</span>', '<style>', '</style>', 'url(',
  'url("https://t.test/a', ')', '@import ', ';', '&#99999999;', '&#x110000;', '&#xD800;', '&#0;', '&amp;', '&', '<', '>',
  '"', "'", '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', 'javascript:alert(1)', '<svg onload=alert(1)>',
  '<iframe src=//evil>', 'code', ' 482913 ', 'A7K9Q2', 'verify', 'https://', '.', '....', ' ', '\n', '\uE000', '<!--', '-->',
  '<![CDATA[', '<p', '<b>', 'style="background:url(', 'expression(', '<meta http-equiv=refresh content=0;url=//x>',
]
const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...PIECES), { maxLength: 200 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 400 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...PIECES), fc.integer({ min: 1, max: 5000 })).map(([p, n]) => p.repeat(n)) },
)

const RUNS = { numRuns: 300 }

describe('every extractor and the sanitizer on random and adversarial strings', () => {
  it('sanitizeMailHtml never throws and never lets script, handlers or javascript: URLs through', () => {
    fc.assert(
      fc.property(hostileString, (html) => {
        expect(activeParts(sanitizeMailHtml(html, { cidUrl: () => null }).html)).toEqual([])
      }),
      RUNS,
    )
    // Hundreds of generated mails of up to ~100 KB: seconds on a loaded shared machine.
  }, 60_000)

  it('deriveMessage never throws, fails no part, and keeps every field within its bound', () => {
    fc.assert(
      fc.property(hostileString, fc.option(hostileString), hostileString, (html, text, subject) => {
        const d = deriveMessage({ subject, text, html, contentIds: ['<a@b>', null] })
        expect(d.failures).toEqual([])
        expect([...d.preview].length).toBeLessThanOrEqual(L.previewChars)
        expect(d.htmlText?.length ?? 0).toBeLessThanOrEqual(L.htmlTextChars)
        expect(d.codes.length).toBeLessThanOrEqual(3)
        expect(d.links.length).toBeLessThanOrEqual(3)
        for (const l of d.links) expect(l.url).toMatch(/^https?:\/\//i)
        if (d.safeHtml !== null) expect(activeParts(d.safeHtml)).toEqual([])
        expect(d.safeHtml === null || d.htmlWithheld === null).toBe(true)
      }),
      RUNS,
    )
    // Hundreds of generated mails of up to ~100 KB: seconds on a loaded shared machine.
  }, 60_000)

  it('codes, links, text, preview and entity decoding never throw and stay bounded', () => {
    fc.assert(
      fc.property(hostileString, hostileString, (a, b) => {
        for (const code of extractCodes(a, b)) expect(code).toMatch(/^[A-Z0-9]{4,8}$/)
        const scan = scanHtml(a, L)
        expect(scan.anchors.length).toBeLessThanOrEqual(L.maxAnchors)
        expect(extractLinks(scan.anchors, b).length).toBeLessThanOrEqual(3)
        expect(htmlToText(a).length).toBeLessThanOrEqual(L.htmlTextChars)
        expect([...previewOf(b, 100)].length).toBeLessThanOrEqual(100)
        expect(decodeBasicEntities(a).length).toBeLessThanOrEqual(a.length)
      }),
      RUNS,
    )
    // Hundreds of generated mails of up to ~100 KB: seconds on a loaded shared machine.
  }, 60_000)
})

describe("the code scan's first filter", () => {
  it('finds three digits in a row or six of [A-Z0-9] exactly where the plain two-branch pattern does', () => {
    const plain = /\d{3}|[A-Z0-9]{6}/u
    const text = fc.array(fc.constantFrom('1', '7', 'A', 'Z', 'q', ' ', '-', '\u0663', '\uff11', 'É', '\n'), { maxLength: 40 }).map((a) => a.join(''))
    fc.assert(
      fc.property(text, (s) => {
        expect(MAY_HOLD_CANDIDATE.test(s), JSON.stringify(s)).toBe(plain.test(s))
      }),
      { numRuns: 3000 },
    )
  })
})
