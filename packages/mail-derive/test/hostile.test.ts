import { describe, expect, it } from 'vitest'
import { DEFAULT_DERIVE_LIMITS as L, deriveMessage, extractVerification } from '../src/index.js'
import { activeParts } from './active-parts.js'
import { hostileBodies } from './hostile-inputs.js'

/** Bounds every derived field must keep, whatever the message. */
function expectBounded(d: ReturnType<typeof deriveMessage>): void {
  expect(d.failures).toEqual([])
  expect([...d.preview].length).toBeLessThanOrEqual(L.previewChars)
  expect(d.htmlText?.length ?? 0).toBeLessThanOrEqual(L.htmlTextChars)
  expect(d.codes.length).toBeLessThanOrEqual(3)
  expect(d.links.length).toBeLessThanOrEqual(3)
  for (const link of d.links) expect(link.url.length).toBeLessThanOrEqual(L.maxLinkUrlChars)
  if (d.safeHtml !== null) expect(activeParts(d.safeHtml)).toEqual([])
}

describe('deriveMessage on hostile mail', () => {
  for (const size of [200_000, 2_000_000]) {
    for (const [name, body] of Object.entries(hostileBodies(size))) {
      it(`bounds ${name} (${size / 1000} k)`, () => {
        const d = deriveMessage({ subject: 'Your verification code', text: body.text ?? null, html: body.html ?? null, contentIds: [] })
        expectBounded(d)
        // HTML past the display limit is never rendered: the reader gets text and a note.
        if ((body.html?.length ?? 0) > L.htmlDisplayChars) expect(d.htmlWithheld).toBe('too_large')
        if (body.html && d.htmlWithheld === null) expect(d.safeHtml).not.toBeNull()
      })
    }
  }

  it('reads a link through invalid numeric references instead of throwing (they become U+FFFD)', () => {
    const html = '<p><a href="https://x.test/verify?t=&#99999999;&#x110000;">Verify &#99999999; email</a></p>'
    const d = deriveMessage({ subject: 'Verify', text: null, html, contentIds: [] })
    expect(d.links).toEqual([{ url: 'https://x.test/verify?t=\uFFFD\uFFFD', label: 'Verify \uFFFD email' }])
    expect(d.safeHtml).toContain('Verify')
    expect(extractVerification('x', 'confirm: https://x.test/confirm?t=&#99999999;', null).links[0]?.url).toBe('https://x.test/confirm?t=\uFFFD')
  })

  it('withholds HTML nested too deep and still gives its text', () => {
    const d = deriveMessage({ subject: 's', text: null, html: `<p>Hello reader</p>${'<div>'.repeat(5000)}deep`, contentIds: [] })
    expect(d.htmlWithheld).toBe('unrenderable')
    expect(d.safeHtml).toBeNull()
    expect(d.htmlText).toBe('Hello reader')
  })

  it('withholds HTML over the display limit and renders the text of its first part', () => {
    const html = `<p>Your code is 482913</p>${'<p>filler text</p>'.repeat(30_000)}`
    const d = deriveMessage({ subject: 'Your verification code', text: null, html, contentIds: [] })
    expect(d.htmlWithheld).toBe('too_large')
    expect(d.codes.map((c) => c.code)).toEqual(['482913'])
    expect(d.preview.startsWith('Your code is 482913 filler text')).toBe(true)
  })

  it('keeps the preview to 100 characters, whitespace collapsed', () => {
    const d = deriveMessage({ subject: 's', text: `  Hello\n\n\tworld ${'é'.repeat(300)}`, html: null, contentIds: [] })
    expect(d.preview).toBe(`Hello world ${'é'.repeat(88)}`)
  })

  it('points cid: references at attachment placeholders that resolve to download URLs', async () => {
    const { resolveAttachmentRefs } = await import('../src/index.js')
    const d = deriveMessage({ subject: 's', text: null, html: '<img src="cid:logo@x">\uE000<img src="cid:none">', contentIds: [null, '<Logo@X>'] })
    expect(resolveAttachmentRefs(d.safeHtml!, (i) => `/att/${i}`)).toBe('<img src="/att/1" /><img />')
  })
})
