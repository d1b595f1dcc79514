import { describe, expect, it } from 'vitest'
import { redactUrl } from '../src/redact-url.js'

describe('redactUrl', () => {
  it('replaces the address in every inbox route, encoded or not', () => {
    const cases: [string, string][] = [
      ['/api/email/k7q2m@tempbox.test', '/api/email/[address]'],
      ['/api/email/k7q2m%40tempbox.test/events', '/api/email/[address]/events'],
      ['/api/email/k7q2m@tempbox.test/wait?timeout=30&since=12', '/api/email/[address]/wait?timeout=…&since=…'],
      ['/api/email/k7q2m@tempbox.test/messages/5/raw', '/api/email/[address]/messages/5/raw'],
      ['/api/email/k7q2m@tempbox.test/messages/5/attachments/0', '/api/email/[address]/messages/5/attachments/0'],
      ['/api/email/not-even-an-address', '/api/email/[address]'],
    ]
    for (const [url, want] of cases) expect(redactUrl(url), url).toBe(want)
  })

  it('keeps routes that hold no secret as they are', () => {
    for (const url of ['/api/email/generate', '/api/email/domains', '/api/auth/login', '/api/health', '/', '/about', '/assets/index-abc.js']) {
      expect(redactUrl(url)).toBe(url)
    }
  })

  it('replaces looked-up IPs, short-link codes, stray addresses and every query value', () => {
    expect(redactUrl('/api/ip/203.0.113.9')).toBe('/api/ip/[ip]')
    expect(redactUrl('/api/ip/2001:db8::1')).toBe('/api/ip/[ip]')
    expect(redactUrl('/s/Ab3dE9xY')).toBe('/s/[code]')
    expect(redactUrl('/inbox/someone@example.com')).toBe('/inbox/[address]')
    expect(redactUrl('/x/198.51.100.4/y')).toBe('/x/[ip]/y')
    expect(redactUrl('/api/links?codes=abc,def')).toBe('/api/links?codes=…')
    expect(redactUrl('/?someone@example.com&token=eyJhbGciOi')).toBe('/?…&token=…')
  })
})
