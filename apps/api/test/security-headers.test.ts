import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
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
