import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { REPO_ROOT, startStack, waitFor, type Stack } from '../support/stack'
import { SITE_ROUTES } from './site-routes'

const SETUP_KEY = 'e2e-csp-setup-key-0123456789abcdef'
let stack: Stack
let browser: Browser
let ownerToken: string

beforeAll(async () => {
  stack = await startStack({ withWeb: true, env: { ADMIN_SETUP_KEY: SETUP_KEY } })
  browser = await launchBrowser()
  // An owner, so /analytics renders its dashboard (charts) under the policy too.
  const email = `owner-${Date.now()}@example.com`
  const registered = await post('/api/auth/register', { email, password: 'correct horse battery' })
  ownerToken = ((await registered.json()) as { token: string }).token
  const promoted = await post('/api/auth/promote-owner', { email, secretKey: SETUP_KEY }, ownerToken)
  expect(promoted.status).toBe(200)
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

function post(path: string, body: unknown, token?: string): Promise<Response> {
  return fetch(stack.apiUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
}

/**
 * A page whose CSP violations are collected: the `securitypolicyviolation` events of the page, and Chromium's console
 * report of every refused load or inline code (which also covers the sandboxed mail frame, where no script runs).
 */
async function watchedPage(options: { theme: 'light' | 'dark'; language: string; token?: string }): Promise<{ page: Page; context: BrowserContext; violations: string[]; requests: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: options.theme })
  await context.addInitScript(
    ({ theme, language, token }) => {
      localStorage.setItem('tempbox-theme', theme)
      localStorage.setItem('tempbox-language', language)
      if (token) localStorage.setItem('auth_token', token)
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`)
      })
    },
    { theme: options.theme, language: options.language, token: options.token },
  )
  const page = await context.newPage()
  const violations: string[] = []
  const requests: string[] = []
  page.on('console', (msg) => {
    if (/Content Security Policy|CSP violation/i.test(msg.text())) violations.push(msg.text())
  })
  page.on('request', (req) => requests.push(req.url()))
  return { page, context, violations, requests }
}

describe('security headers', () => {
  it('sends the app policy with the hash of the built inline theme script, and the other headers', async () => {
    const res = await fetch(stack.apiUrl + '/')
    const csp = res.headers.get('content-security-policy')!
    const html = readFileSync(join(REPO_ROOT, 'apps/web/dist/index.html'), 'utf8')
    const inline = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!
    const hash = createHash('sha256').update(inline).digest('base64')
    // Each directive whole, not a prefix: `img-src 'self' data: https:` must not pass for `img-src 'self' data:`.
    const directives = new Map(csp.split(';').map((d) => { const [name, ...values] = d.trim().split(/\s+/); return [name, values.join(' ')] }))
    expect(directives.get('script-src')).toBe(`'self' 'sha256-${hash}'`)
    const expected = {
      'default-src': "'self'",
      'frame-ancestors': "'none'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'self'",
      'img-src': "'self' data:",
      // No inline styles either: mail has a document and a policy of its own (…/frame), the app sets styles through the CSSOM.
      'style-src': "'self'",
    }
    for (const [name, value] of Object.entries(expected)) expect(directives.get(name), name).toBe(value)
    expect(csp).not.toContain('unsafe-inline')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    // Not behind TLS here: no HSTS.
    expect(res.headers.get('strict-transport-security')).toBeNull()

    // Every other header an HTML document has always had.
    const documentHeaders = {
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    }
    for (const [name, value] of Object.entries(documentHeaders)) expect(res.headers.get(name), name).toBe(value)

    // A JSON answer: what protects it, an inert policy, none of the headers that only mean something to a page.
    const api = await fetch(stack.apiUrl + '/api/health')
    expect(api.headers.get('x-content-type-options')).toBe('nosniff')
    expect(api.headers.get('cross-origin-resource-policy')).toBe('same-origin')
    expect(api.headers.get('x-frame-options')).toBe('DENY')
    expect(api.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'")
    for (const name of Object.keys(documentHeaders).filter((n) => n !== 'cross-origin-resource-policy')) expect(api.headers.get(name), name).toBeNull()
  })

  it('cannot be framed by another site', async () => {
    const { page, context, violations } = await watchedPage({ theme: 'light', language: 'en' })
    await page.setContent(`<iframe id="f" src="${stack.apiUrl}/contact" width="600" height="400"></iframe>`)
    // Chromium refuses to render us inside another page and says why.
    await waitFor(() => violations.some((v) => v.includes("frame-ancestors 'none'")), 20_000, 'the frame to be refused')
    const frame = (await (await page.$('#f'))!.contentFrame())!
    expect(await frame.getByText('Contact Us').count()).toBe(0)
    await context.close()
  })

  it('serves Swagger UI at /api/docs under its own policy, and it renders with no violation', async () => {
    const res = await fetch(stack.apiUrl + '/api/docs/')
    expect(res.headers.get('content-security-policy')).toContain("style-src 'self' 'unsafe-inline'")
    const { page, context, violations } = await watchedPage({ theme: 'light', language: 'en' })
    await page.goto(stack.apiUrl + '/api/docs/')
    await page.getByText('Tempbox API').first().waitFor()
    await page.locator('.opblock').first().waitFor()
    expect(violations).toEqual([])
    await context.close()
  })
})

describe('every page works under the policy', () => {
  // Each route in each theme and each direction: the inline script sets the two independently (theme, then dir).
  const variants = [
    { theme: 'light', language: 'en' },
    { theme: 'dark', language: 'ar' },
  ] as const
  for (const variant of variants) {
    it(`reports no CSP violation on any route (${variant.theme}, ${variant.language})`, async () => {
      const { page, context, violations } = await watchedPage({ ...variant, token: ownerToken })
      for (const route of SITE_ROUTES) {
        await page.goto(stack.apiUrl + route.path)
        await page.waitForFunction(() => document.title.includes('Tempbox'))
        await page.locator('h1, h2').first().waitFor()
        // The inline theme script ran: the theme class and direction are set before the app's code.
        const state = await page.evaluate(() => [document.documentElement.classList.contains(document.documentElement.style.colorScheme), document.documentElement.dir])
        expect(state).toEqual([true, variant.language === 'en' ? 'ltr' : 'rtl'])
        expect(violations, route.path).toEqual([])
      }
      await page.goto(stack.apiUrl + '/analytics')
      await page.locator('svg[role="img"]').first().waitFor()
      expect(violations, '/analytics as owner').toEqual([])
      await context.close()
    })
  }

  it('uses every tool (word counter worker, QR image, link list, IP lookup) with no violation', async () => {
    const { page, context, violations } = await watchedPage({ theme: 'dark', language: 'en' })
    await page.goto(stack.apiUrl)
    // Long enough for the word counter's worker (a script of ours, started from /assets/).
    const counter = page.getByTestId('word-counter')
    await counter.getByLabel('Your text').fill('word '.repeat(60_000))
    await expect.poll(() => counter.locator('[data-stat="words"] dd').textContent(), { timeout: 30_000 }).toBe('60,000')
    const qr = page.getByTestId('qr-generator')
    await qr.getByLabel('Text or URL').fill('https://example.com')
    await qr.getByRole('button', { name: 'Generate' }).click()
    await qr.getByRole('img', { name: 'QR code for https://example.com' }).waitFor()
    const links = page.getByTestId('link-shortener')
    await links.getByLabel('Long URL').fill('https://example.com/some/long/path')
    await links.getByRole('button', { name: 'Shorten' }).click()
    await links.getByTestId('short-links').locator('li').first().waitFor()
    await page.getByTestId('ip-finder').getByTestId('own-ip-address').waitFor()
    expect(violations).toEqual([])
    await context.close()
  })
})

describe('the mail frame', () => {
  it('loads only this message\'s own attachments from our origin: hostile CSS reaches no /s/ link and no other path', async () => {
    // A short link of our own whose clicks a hostile mail would like to count.
    const created = await post('/api/links', { url: 'https://example.com/target' })
    const link = (await created.json()) as { code: string; secret: string }
    const { page, context, violations, requests } = await watchedPage({ theme: 'light', language: 'en' })
    await page.goto(stack.apiUrl)
    await page.locator('#temp-email').getByRole('button', { name: 'Generate Email' }).click()
    const field = page.locator('#temp-email').getByLabel('Your temporary address')
    await field.waitFor()
    const address = await field.inputValue()

    const s = `/s/${link.code}`
    const css = [
      `.a{background-image:image-set("${s}" 1x)}`,
      `.b{background-image:-webkit-image-set("${s}?b" 1x)}`,
      `.c{background:\\75 rl(${s}?c)}`,
      `.d{background:u\\rl("${s}?d")}`,
      `.e{list-style-image:url(${s}?e)}`,
      `.f{cursor:url(/api/links?codes=${link.code}),auto}`,
      `@import "${s}?import";`,
      `.g{background:image-set(/**/"${s}?g" 1x)}`,
    ].join('\n')
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwHwyBNAMAPQ0H+QKV6+gAAAAASUVORK5CYII=', 'base64')
    const html =
      `<html><head><style>${css}</style></head><body>` +
      '<p class="a">A</p><p class="b">B</p><p class="c">C</p><p class="d">D</p><ul class="e"><li>E</li></ul><p class="f">F</p><p class="g">G</p>' +
      `<div style="background-image:image-set('${s}?inline' 1x);height:10px">I</div>` +
      `<img src="${s}?img" alt="x"><table background="${s}?table"><tr><td>T</td></tr></table>` +
      '<img id="logo" src="cid:logo@acme" alt="logo"><p>Hostile styles here</p></body></html>'
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
    await transport.sendMail({
      from: 'a@example.com',
      to: address,
      subject: 'Styled to count',
      html,
      attachments: [{ filename: 'logo.png', content: png, contentType: 'image/png', cid: 'logo@acme' }],
    })

    await page.locator('#temp-email').getByRole('button', { name: /Styled to count/ }).click()
    const iframe = page.locator('iframe[title="Message content"]')
    await iframe.waitFor()
    const frame = (await (await iframe.elementHandle())!.contentFrame())!
    await frame.getByText('Hostile styles here').waitFor()
    // The message's own cid: image loads (our origin, its attachment path) …
    await waitFor(async () => (await frame.locator('#logo').evaluate((img) => (img as HTMLImageElement).naturalWidth)) === 2, 20_000, 'the cid image')
    await page.mouse.move(10, 10)
    await frame.locator('.f').hover()
    // … and nothing else of ours was asked for: no short link, no other API path.
    const ours = requests.filter((url) => url.startsWith(stack.apiUrl))
    expect(ours.filter((url) => url.includes('/s/') || url.includes('/api/links'))).toEqual([])
    expect(ours.filter((url) => url.includes('/attachments/'))).toEqual([expect.stringMatching(new RegExp(`/api/email/${encodeURIComponent(address)}/messages/\\d+/attachments/0$`))])
    const stats = await post('/api/links/lookup', { links: [link].map(({ code, secret }) => ({ code, secret })) })
    expect(((await stats.json()) as { links: { clicks: number }[] }).links[0]!.clicks).toBe(0)
    expect(violations).toEqual([])
    await context.close()
  })
})
