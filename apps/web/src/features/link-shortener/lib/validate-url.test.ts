import { describe, expect, it } from 'vitest'
import { checkUrl } from './validate-url'

describe('checkUrl (spec §5)', () => {
  it('asks for a URL when empty', () => {
    expect(checkUrl('')).toBe('empty')
    expect(checkUrl('   ')).toBe('empty')
  })
  it('refuses anything that is not an absolute http(s) URL', () => {
    for (const bad of ['example.com', 'www.example.com', 'not a url', '/relative', 'ftp://x.example', 'javascript:alert(1)']) expect(checkUrl(bad)).toBe('invalid')
  })
  it('accepts http and https URLs', () => {
    for (const ok of ['https://example.com', 'http://example.com/a?b=c#d', ' https://例え.jp/パス ']) expect(checkUrl(ok)).toBeNull()
  })
})
