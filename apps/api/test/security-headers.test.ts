import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { deliver, generate } from './email-fixtures.js'
import { buildTestApp } from './helper.js'

let app: App | undefined
const dirs: string[] = []
afterEach(async () => {
  await app?.close()
  app = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A web build whose index.html carries the given inline script. */
function webDist(script: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tempbox-web-'))
  dirs.push(dir)
  writeFileSync(join(dir, 'index.html'), `<!doctype html><html><head><script>${script}</script></head><body><script type="module" src="/assets/a.js"></script></body></html>`)
  return dir
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

/** Every header an HTML document of ours carried under helmet, CSP apart (its directives are checked on their own). */
const DOCUMENT_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
}
const DOCUMENT_ONLY = ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection']
/** What an API answer carries instead: what protects JSON, a stream or a download, and a policy that leaves it inert. */
const API_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
}
const SECURITY_HEADERS = [...new Set([...Object.keys(DOCUMENT_HEADERS), ...Object.keys(API_HEADERS), 'strict-transport-security'])]

function securityHeadersOf(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(SECURITY_HEADERS.filter((name) => headers[name] !== undefined).map((name) => [name, headers[name]]))
}

describe('security headers', () => {
  it('allows exactly the inline script of the index.html being served, by hash', async () => {
    const script = "document.documentElement.classList.add('dark')"
    app = await buildTestApp({ WEB_DIST_DIR: webDist(script) })
    const res = await app.inject({ url: '/about' })
    const csp = res.headers['content-security-policy'] as string
    expect(csp).toContain(`script-src 'self' ${sha256(script)};`)
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/)
    expect(csp).toMatch(/(^|; )default-src 'self'(;|$)/)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("base-uri 'none'")
    expect(csp).toContain("form-action 'self'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['referrer-policy']).toBe('no-referrer')
    expect(res.headers['x-frame-options']).toBe('DENY')
    expect(res.headers['strict-transport-security']).toBeUndefined()
  })

  it('keeps every header an HTML document had: pages, their files, the short-link 404 page', async () => {
    app = await buildTestApp({ WEB_DIST_DIR: webDist('var a = 1') })
    for (const url of ['/', '/about', '/index.html', '/s/nope']) {
      const res = await app.inject({ url })
      expect(res.headers['content-type'], url).toMatch(/^text\/html/)
      expect(res.headers['content-security-policy'], url).toContain(`script-src 'self' ${sha256('var a = 1')};`)
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'")
      const { 'content-security-policy': _csp, ...others } = securityHeadersOf(res.headers)
      expect(others, url).toEqual(DOCUMENT_HEADERS)
    }
  })

  it('gives JSON answers, the listing and its 304 only the headers that protect them', async () => {
    app = await buildTestApp({ WEB_DIST_DIR: webDist('var a = 1') })
    const address = await generate(app)
    await deliver(app, address, { subject: 'Hello' })
    const listing = await app.inject({ url: `/api/email/${address}` })
    expect(listing.statusCode).toBe(200)
    const notModified = await app.inject({ url: `/api/email/${address}`, headers: { 'if-none-match': listing.headers.etag as string } })
    expect(notModified.statusCode).toBe(304)
    const missing = await app.inject({ url: '/api/email/nobody-here@tempbox.local' })
    expect(missing.statusCode).toBe(404)
    for (const res of [listing, notModified, missing, await app.inject({ url: '/api/health/live' }), await app.inject({ method: 'DELETE', url: '/api/nope' })]) {
      expect(securityHeadersOf(res.headers), res.raw.req.url).toEqual(API_HEADERS)
    }
    const head = Object.entries(listing.headers).map(([name, value]) => `${name}: ${String(value)}\r\n`).join('')
    // Under helmet the listing carried some 850 bytes of headers, most of them meant only for HTML documents.
    expect(Buffer.byteLength(head)).toBeLessThan(500)
    for (const name of DOCUMENT_ONLY) expect(listing.headers[name]).toBeUndefined()
  })

  it('serves the mail frame as a document (its own policy, framed by the app only) and attachments sandboxed', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const id = await deliver(app, address, {
      html: '<p>Hi</p>',
      attachments: [{ filename: 'a.html', contentType: 'text/html', content: Buffer.from('<script>alert(1)</script>') }],
    })
    const frame = await app.inject({ url: `/api/email/${address}/messages/${id}/frame` })
    expect(frame.statusCode).toBe(200)
    expect(frame.headers['content-security-policy']).toContain('sandbox')
    expect(frame.headers['x-frame-options']).toBe('SAMEORIGIN')
    const { 'content-security-policy': _csp, 'x-frame-options': _xfo, ...others } = securityHeadersOf(frame.headers)
    const { 'x-frame-options': _deny, ...expected } = DOCUMENT_HEADERS
    expect(others).toEqual(expected)
    const attachment = await app.inject({ url: `/api/email/${address}/messages/${id}/attachments/0` })
    expect(attachment.statusCode).toBe(200)
    expect(attachment.headers['content-security-policy']).toBe("default-src 'none'; sandbox")
    expect(attachment.headers['content-disposition']).toMatch(/^attachment/)
    expect(attachment.headers['x-content-type-options']).toBe('nosniff')
    expect(attachment.headers['cross-origin-resource-policy']).toBe('same-origin')
  })

  it('sends the API headers on the event stream', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const url = await app.listen({ host: '127.0.0.1', port: 0 })
    const controller = new AbortController()
    const res = await fetch(`${url}/api/email/${address}/events`, { signal: controller.signal })
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    expect(securityHeadersOf(Object.fromEntries(res.headers))).toEqual(API_HEADERS)
    controller.abort()
  })

  it('follows a changed theme script with a new hash', async () => {
    app = await buildTestApp({ WEB_DIST_DIR: webDist('var changed = 1') })
    const csp = (await app.inject({ url: '/' })).headers['content-security-policy'] as string
    expect(csp).toContain(sha256('var changed = 1'))
    expect(csp).not.toContain(sha256("document.documentElement.classList.add('dark')"))
  })

  // Three apps built in turn: more than the default 5 s on a busy machine.
  it('sends HSTS in production behind a trusted proxy, and not when HSTS=false', { timeout: 30_000 }, async () => {
    const production = { APP_ENV: 'production', TRUST_PROXY: '1', JWT_SECRET: 'x'.repeat(32), ADMIN_SETUP_KEY: 'k'.repeat(32), GEOIP_PRELOAD: 'false' }
    app = await buildTestApp(production)
    expect((await app.inject({ url: '/api/health' })).headers['strict-transport-security']).toBe('max-age=15552000')
    await app.close()
    app = await buildTestApp({ ...production, HSTS: 'false' })
    expect((await app.inject({ url: '/api/health' })).headers['strict-transport-security']).toBeUndefined()
    await app.close()
    app = await buildTestApp({ HSTS: 'true' })
    expect((await app.inject({ url: '/api/health' })).headers['strict-transport-security']).toBe('max-age=15552000')
  })

  it('serves Swagger UI under its own policy, still unframeable', async () => {
    app = await buildTestApp()
    const res = await app.inject({ url: '/api/docs/' })
    expect(res.statusCode).toBe(200)
    const csp = res.headers['content-security-policy'] as string
    expect(csp).toContain("style-src 'self' 'unsafe-inline'")
    expect(csp).toContain("script-src 'self';")
    expect(csp).toContain("frame-ancestors 'none'")
  })
})
