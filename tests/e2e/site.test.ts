import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { startStack, type Stack } from '../support/stack'
import { SITE_ROUTES } from './site-routes'

let stack: Stack
let browser: Browser

beforeAll(async () => {
  stack = await startStack({ withWeb: true })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

async function open(path: string, options: { width?: number } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 800 } })
  const page = await context.newPage()
  await page.goto(stack.apiUrl + path)
  return page
}

describe('routes', () => {
  // One tab loads every route as a new document: a fresh page per route cost Chromium nearly three times the CPU.
  let page: Page
  beforeAll(async () => {
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
  })
  afterAll(async () => {
    await page?.context().close()
  })

  for (const route of SITE_ROUTES) {
    it(`${route.path} shows its heading and sets its title`, async () => {
      await page.goto(stack.apiUrl + route.path)
      if (route.heading) await page.getByRole('heading', { level: 1, name: route.heading, exact: true }).waitFor()
      await page.waitForFunction((title) => document.title === title, route.title)
      const description = await page.locator('meta[name="description"]').getAttribute('content')
      expect(description?.length).toBeGreaterThan(20)
    })
  }

  it('answers deep links from the server with the app, and unknown API paths with JSON', async () => {
    await page.goto(stack.apiUrl + '/privacy-policy')
    await page.getByText('Last updated December 22, 2024').waitFor()
    const res = await fetch(`${stack.apiUrl}/api/no-such-thing`)
    expect(res.status).toBe(404)
    expect(((await res.json()) as { code: string }).code).toBe('not_found')
  })
})

describe('scripts', () => {
  it('starts the home page without the component kit, then loads the kit as one file', async () => {
    const html = await (await fetch(stack.apiUrl + '/')).text()
    const firstView = [...html.matchAll(/<script[^>]+src="([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1] ?? m[2])
    expect(firstView.some((src) => /\/vendor-[\w-]+\.js$/.test(src!))).toBe(true)
    expect(firstView.filter((src) => /\/ui-[\w-]+\.js$/.test(src!))).toEqual([])

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const scripts: string[] = []
    const page = await context.newPage()
    page.on('request', (request) => void (request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname)))
    await page.goto(stack.apiUrl + '/')
    await page.getByRole('heading', { level: 1 }).first().waitFor()
    await page.waitForLoadState('networkidle')
    expect(scripts.filter((path) => /^\/assets\/ui-[\w-]+\.js$/.test(path))).toHaveLength(1)
    // 57 before the kit was one chunk (icons and Radix parts of a few hundred bytes each, a file per set of users).
    expect(scripts.length).toBeLessThan(35)
    await context.close()
  })
})

describe('language', () => {
  it('switching to Arabic turns the page right-to-left and translates the header', async () => {
    const page = await open('/')
    await page.getByTestId('language-picker-header').click()
    await page.getByTestId('language-option-ar').click()
    await page.waitForFunction(() => document.documentElement.dir === 'rtl' && document.documentElement.lang === 'ar')
    const nav = page.getByRole('navigation', { name: 'التنقل الرئيسي' })
    await nav.getByRole('link', { name: 'الأدوات' }).waitFor()
    await nav.getByRole('link', { name: 'اتصل بنا' }).waitFor()
    await page.getByRole('heading', { level: 1, name: 'بريد مؤقت مجاني، فورًا' }).waitFor()
    // The choice is remembered, and applied before the first paint on the next load.
    await page.reload()
    expect(await page.evaluate(() => [document.documentElement.dir, localStorage.getItem('tempbox-language')])).toEqual(['rtl', 'ar'])
    await page.context().close()
  })
})

describe('theme', () => {
  it('survives a reload with the dark class set before the body is parsed', async () => {
    const page = await open('/about')
    await page.getByTestId('theme-toggle').click()
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'))
    expect(await page.evaluate(() => localStorage.getItem('tempbox-theme'))).toBe('dark')
    // Record the root's class when <body> appears: nothing can have been painted yet.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (document.body) {
          ;(window as unknown as { classAtBody: string }).classAtBody = document.documentElement.className
          observer.disconnect()
        }
      }).observe(document, { childList: true, subtree: true })
    })
    await page.reload()
    expect(await page.evaluate(() => (window as unknown as { classAtBody: string }).classAtBody)).toContain('dark')
    await page.getByRole('heading', { level: 1, name: 'About Tempbox' }).waitFor()
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
    await page.context().close()
  })
})

describe('system theme', () => {
  it('follows the device preference and its changes', async () => {
    const page = await open('/legal')
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'System' }).click()
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'))
    await page.emulateMedia({ colorScheme: 'light' })
    await page.waitForFunction(() => !document.documentElement.classList.contains('dark'))
    expect(await page.evaluate(() => localStorage.getItem('tempbox-theme'))).toBe('system')
    await page.context().close()
  })
})

describe('navigation', () => {
  it('scrolls to the top after back and forward', async () => {
    const page = await open('/about')
    await page.getByRole('heading', { level: 1, name: 'About Tempbox' }).waitFor()
    await page.evaluate(() => window.scrollTo(0, 900))
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click()
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor()
    await page.evaluate(() => window.scrollTo(0, 400))
    await page.goBack()
    await page.getByRole('heading', { level: 1, name: 'About Tempbox' }).waitFor()
    await page.waitForFunction(() => window.scrollY === 0)
    await page.evaluate(() => window.scrollTo(0, 700))
    await page.goForward()
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor()
    await page.waitForFunction(() => window.scrollY === 0)
    await page.context().close()
  })

  it('shows the scroll buttons past 300 px, and Get Started puts #tools in the URL', async () => {
    const page = await open('/')
    expect(await page.getByTestId('scroll-buttons').count()).toBe(0)
    await page.getByTestId('get-started').click()
    await page.waitForFunction(() => location.hash === '#tools')
    await page.getByTestId('scroll-buttons').waitFor()
    await page.getByRole('button', { name: 'Scroll to top' }).click()
    await page.waitForFunction(() => window.scrollY === 0)
    await page.context().close()
  })

  it('has a side menu with the same links on a 360 px screen', async () => {
    const page = await open('/', { width: 360 })
    await page.getByTestId('mobile-menu-trigger').click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('link', { name: 'About' }).click()
    await page.getByRole('heading', { level: 1, name: 'About Tempbox' }).waitFor()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBe(0)
    await page.context().close()
  })
})

describe('toasts and contact', () => {
  it('shows only one toast at a time', async () => {
    const page = await open('/blog')
    const email = page.getByRole('textbox', { name: 'Email address' })
    for (let i = 0; i < 3; i++) {
      await email.fill(`reader${i}@example.com`)
      await page.getByRole('button', { name: 'Subscribe' }).click()
    }
    await page.locator('[data-slot="toast"]').getByText('Thanks for your interest!').waitFor()
    expect(await page.locator('[data-slot="toast"]').count()).toBe(1)
    await page.context().close()
  })

  it('sends the contact form and says so', async () => {
    const page = await open('/contact')
    const form = page.getByTestId('contact-form-page')
    await form.getByLabel('Name').fill('Ada')
    await form.getByLabel('Email').fill('ada@example.com')
    await form.getByLabel('Subject').fill('Hello')
    expect(await form.getByLabel('Message').getAttribute('rows')).toBe('6')
    await form.getByLabel('Message').fill('A question about addresses.')
    await form.getByRole('button', { name: 'Send Message' }).click()
    const toast = page.locator('[data-slot="toast"]')
    await toast.getByText('Message Sent Successfully!').waitFor()
    await toast.getByText('Thank you for contacting us. We will respond within 24 hours.').waitFor()
    expect(await form.getByLabel('Name').inputValue()).toBe('')
    await page.context().close()
  })
})
