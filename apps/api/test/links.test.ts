import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import type { App } from '../src/app.js'
import { generateCode } from '../src/services/short-links/short-link-service.js'
import { buildTestApp } from './helper.js'

let app: App
afterEach(async () => {
  await app?.close()
})

const shorten = (url: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/links', payload: { url }, headers: { host: 'tempbox.test', ...headers } })
const lookup = (links: { code: string; secret: string }[], remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/links/lookup', payload: { links: links.map(({ code, secret }) => ({ code, secret })) }, remoteAddress })

describe('POST /api/links', () => {
  it('stores the target and answers the spec entity plus its code', async () => {
    app = await buildTestApp()
    const res = await shorten('https://example.com/some/page?q=1')
    expect(res.statusCode).toBe(201)
    const link = res.json()
    expect(link.code).toMatch(/^[A-Za-z0-9]{8}$/)
    expect(link.secret).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(link).toMatchObject({ original: 'https://example.com/some/page?q=1', shortened: `http://tempbox.test/s/${link.code}`, clicks: 0 })
    expect(new Date(link.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000)
  })

  it.each([
    ['', 'Please enter a URL to shorten'],
    ['   ', 'Please enter a URL to shorten'],
    ['example.com', 'Please enter a valid URL (include http:// or https://)'],
    ['not a url', 'Please enter a valid URL (include http:// or https://)'],
    ['ftp://example.com/file', 'Please enter a valid URL (include http:// or https://)'],
    ['javascript:alert(1)', 'Please enter a valid URL (include http:// or https://)'],
    ['mailto:a@example.com', 'Please enter a valid URL (include http:// or https://)'],
  ])('refuses %j with a clear message', async (url, message) => {
    app = await buildTestApp()
    const res = await shorten(url)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ error: message, code: 'invalid_url' })
  })

  it('refuses links to our own short links, so nothing can loop', async () => {
    app = await buildTestApp()
    const first = (await shorten('https://example.com')).json()
    const res = await shorten(first.shortened)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('invalid_url')
    // Other pages of our own site are fine.
    expect((await shorten('http://tempbox.test/about')).statusCode).toBe(201)
  })

  it('refuses a body without url and an oversized url', async () => {
    app = await buildTestApp()
    const missing = await app.inject({ method: 'POST', url: '/api/links', payload: {} })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().code).toBe('validation_failed')
    const long = await shorten(`https://example.com/${'a'.repeat(3000)}`)
    expect(long.statusCode).toBe(400)
  })

  it('limits how many links one client can create', async () => {
    app = await buildTestApp()
    for (let i = 0; i < 30; i++) expect((await shorten(`https://example.com/${i}`)).statusCode).toBe(201)
    const res = await shorten('https://example.com/one-too-many')
    expect(res.statusCode).toBe(429)
    expect(res.json().code).toBe('rate_limited')
    // Another client is not affected.
    expect((await app.inject({ method: 'POST', url: '/api/links', payload: { url: 'https://example.com' }, remoteAddress: '203.0.113.9' })).statusCode).toBe(201)
  })
})

describe('GET /s/{code}', () => {
  it('redirects with 302 and counts every click', async () => {
    app = await buildTestApp()
    const link = (await shorten('https://example.com/landing')).json()
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: `/s/${link.code}` })
      expect(res.statusCode).toBe(302)
      expect(res.headers.location).toBe('https://example.com/landing')
      expect(res.headers['cache-control']).toBe('no-store')
    }
    const list = await lookup([link])
    expect(list.json().links[0].clicks).toBe(3)
  })

  it('answers 404 for a code that does not exist (JSON without the web build)', async () => {
    app = await buildTestApp()
    const res = await app.inject({ method: 'GET', url: '/s/ZZZZZZZZ' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 'link_not_found' })
    expect((await app.inject({ method: 'GET', url: '/s/bad!code' })).statusCode).toBe(404)
  })

  it("answers the web app's 404 page when the web build is served", async () => {
    const dist = mkdtempSync(join(tmpdir(), 'tempbox-web-'))
    onTestFinished(() => rmSync(dist, { recursive: true, force: true }))
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Tempbox</title><div id="root"></div>')
    app = await buildTestApp({ WEB_DIST_DIR: dist })
    const res = await app.inject({ method: 'GET', url: '/s/nope12' })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toContain('text/html')
    expect(res.body).toContain('<div id="root">')
  })
})

describe('POST /api/links/lookup', () => {
  it('answers live counts of the links whose secret is given, newest first, ignoring unknown codes', async () => {
    app = await buildTestApp()
    const a = (await shorten('https://a.example')).json()
    const b = (await shorten('https://b.example')).json()
    const other = (await shorten('https://someone-else.example')).json()
    // `a` was made first but dated later: the order follows the creation time, not the row id.
    await app.db.updateTable('short_link').set({ created_at: Date.now() + 60_000 }).where('code', '=', a.code).execute()
    await app.inject({ method: 'GET', url: `/s/${a.code}` })
    const res = await lookup([a, b, { code: 'XXXXXXXX', secret: 'x' }, { code: '<bad>', secret: 'x' }])
    expect(res.statusCode).toBe(200)
    const links = res.json().links
    expect(links.map((l: { code: string }) => l.code)).toEqual([a.code, b.code])
    expect(links[0].clicks).toBe(1)
    expect(links[1].clicks).toBe(0)
    expect(links.some((l: { code: string }) => l.code === other.code)).toBe(false)
  })

  it('shows nothing of a link to someone who knows its code but not its secret', async () => {
    app = await buildTestApp()
    const link = (await shorten('https://private.example/reset?token=abc')).json()
    const guessed = await lookup([{ code: link.code, secret: '' }, { code: link.code, secret: 'A'.repeat(32) }])
    expect(guessed.json()).toEqual({ links: [] })
    expect(guessed.body).not.toContain('private.example')
    // Another link's secret does not open it either.
    const mine = (await shorten('https://mine.example')).json()
    expect((await lookup([{ code: link.code, secret: mine.secret }])).json()).toEqual({ links: [] })
    // A link from before secrets (none stored) is shown to nobody.
    await app.db.updateTable('short_link').set({ secret_hash: null }).where('code', '=', mine.code).execute()
    expect((await lookup([mine])).json()).toEqual({ links: [] })
  })

  it('answers an empty list for no links, and 400 for more than 200 or a malformed body', async () => {
    app = await buildTestApp()
    expect((await lookup([])).json()).toEqual({ links: [] })
    const many = Array.from({ length: 201 }, () => ({ code: 'AAAAAAAA', secret: 'x' }))
    expect((await lookup(many)).statusCode).toBe(400)
    expect((await app.inject({ method: 'POST', url: '/api/links/lookup', payload: { codes: 'AAAAAAAA' } })).statusCode).toBe(400)
  })

  it('is rate-limited per client (60 a minute); a second client is not affected', async () => {
    app = await buildTestApp()
    for (let i = 0; i < 60; i++) expect((await lookup([], '198.51.100.80')).statusCode).toBe(200)
    const refused = await lookup([], '198.51.100.80')
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['retry-after']).toBeDefined()
    expect(refused.json()).toMatchObject({ code: 'rate_limited' })
    expect((await lookup([], '198.51.100.81')).statusCode).toBe(200)
  })

  it('no longer answers GET /api/links?codes= (it showed any code to anyone)', async () => {
    app = await buildTestApp()
    const link = (await shorten('https://a.example')).json()
    const res = await app.inject({ method: 'GET', url: `/api/links?codes=${link.code}` })
    expect(res.statusCode).toBe(404)
    expect(res.body).not.toContain('a.example')
  })
})

describe('generateCode', () => {
  it('makes 8 letters and digits, different each time', () => {
    const codes = new Set(Array.from({ length: 1000 }, generateCode))
    expect(codes.size).toBe(1000)
    for (const c of codes) expect(c).toMatch(/^[A-Za-z0-9]{8}$/)
  })
})
