import { describe, expect, it } from 'vitest'
import { prepareUrl } from './validate-url'

describe('prepareUrl (spec §5)', () => {
  it('asks for a URL when empty', () => {
    expect(prepareUrl('')).toEqual({ problem: 'empty' })
    expect(prepareUrl('   ')).toEqual({ problem: 'empty' })
  })
  it('puts https:// in front of a bare domain instead of refusing it', () => {
    expect(prepareUrl('example.com/some/page')).toEqual({ url: 'https://example.com/some/page' })
    expect(prepareUrl(' www.example.com ')).toEqual({ url: 'https://www.example.com' })
    expect(prepareUrl('example.co.uk:8080/a?b=c#d')).toEqual({ url: 'https://example.co.uk:8080/a?b=c#d' })
  })
  it('refuses anything that is not an absolute http(s) URL nor a bare domain', () => {
    for (const bad of ['not a url', '/relative', 'ftp://x.example', 'javascript:alert(1)', 'mailto:a@example.com', 'localhost', '3.14']) {
      expect(prepareUrl(bad)).toEqual({ problem: 'invalid' })
    }
  })
  it('accepts http and https URLs as typed', () => {
    for (const ok of ['https://example.com', 'http://example.com/a?b=c#d', 'https://例え.jp/パス']) expect(prepareUrl(` ${ok} `)).toEqual({ url: ok })
  })
})
