import { describe, expect, it } from 'vitest'
import { linkify } from './linkify'

describe('linkify', () => {
  it('turns http(s) URLs in running text into links, leaving the sentence punctuation out', () => {
    expect(linkify('Confirm at https://acme.test/verify?t=1. Thanks!')).toEqual([
      { kind: 'text', text: 'Confirm at ' },
      { kind: 'link', text: 'https://acme.test/verify?t=1', href: 'https://acme.test/verify?t=1' },
      { kind: 'text', text: '. Thanks!' },
    ])
  })

  it('gives bare www. hosts https and keeps brackets that belong to the URL', () => {
    expect(linkify('(see www.acme.test)')).toEqual([
      { kind: 'text', text: '(see ' },
      { kind: 'link', text: 'www.acme.test', href: 'https://www.acme.test' },
      { kind: 'text', text: ')' },
    ])
    expect(linkify('https://en.wikipedia.test/wiki/Mail_(disambiguation)')[0]).toMatchObject({ kind: 'link', text: 'https://en.wikipedia.test/wiki/Mail_(disambiguation)' })
  })

  it('never makes a link of other schemes or of text without a host', () => {
    expect(linkify('javascript:alert(1) and http:// alone')).toEqual([{ kind: 'text', text: 'javascript:alert(1) and http:// alone' }])
  })

  it('reads a URL holding 300,000 dots in one pass (a hostile mail must not freeze the viewer)', () => {
    const url = `https://x.test/login${'.'.repeat(300_000)}x`
    expect(linkify(`sign in: ${url}...`)).toEqual([
      { kind: 'text', text: 'sign in: ' },
      { kind: 'link', text: url, href: url },
      { kind: 'text', text: '...' },
    ])
  })
})
