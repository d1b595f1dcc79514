import { describe, expect, it } from 'vitest'
import { activeParts } from './active-parts.js'
import { HOSTILE_HTML } from './fixtures/hostile-html.js'

// The judge itself: unsanitized, each of these payloads runs script in a browser, and parse5 must say so on its own.
describe('activeParts', () => {
  for (const name of ['scriptTag', 'scriptInCase', 'handlers', 'javascriptUrl', 'svgPayload', 'frames', 'styleBreakout']) {
    it(`finds ${name} active by parse5's reading as well as htmlparser2's`, () => {
      const found = activeParts(HOSTILE_HTML[name]!)
      expect(found.filter((part) => part.startsWith('parse5: ')).length).toBeGreaterThan(0)
      expect(found.filter((part) => !part.startsWith('parse5: ')).length).toBeGreaterThan(0)
    })
  }

  // Where the two parsers part: a comment closed by `--!>`, and a </noscript> inside an attribute (a browser runs script).
  it('finds handlers only a standard parser reads, that htmlparser2 takes for comment or attribute text', () => {
    expect(activeParts('<p>a<!--x--!><img src=x onerror=alert(1)>-->')).toEqual(['parse5: img[onerror]'])
    expect(activeParts('<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>')).toEqual(['parse5: img[onerror]'])
  })
})
