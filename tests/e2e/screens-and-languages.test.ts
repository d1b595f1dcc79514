import { readFileSync } from 'node:fs'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import type { Browser, Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { startStack, type Stack } from '../support/stack'

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

function send(to: string, mail: SendMailOptions) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
  return transport.sendMail({ from: 'Acme Billing <billing@acme.example>', to, ...mail })
}

async function openPage(options: { width?: number; language?: string } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 800 } })
  if (options.language) await context.addInitScript((lng) => localStorage.setItem('tempbox-language', lng), options.language)
  const page = await context.newPage()
  await page.goto(stack.apiUrl)
  return page
}

/** Generates an address in the open page and returns it. */
async function generate(page: Page, button = 'Generate Email'): Promise<string> {
  const tool = page.locator('#temp-email')
  await tool.getByRole('button', { name: button }).click()
  const field = tool.locator('#temp-email-address')
  await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('#temp-email-address')?.value ?? '').includes('@'))
  return field.inputValue()
}

async function mailFrame(page: Page): Promise<Frame> {
  const iframe = page.locator('iframe[sandbox]')
  await iframe.waitFor()
  const frame = (await (await iframe.elementHandle())!.contentFrame())!
  await frame.waitForLoadState('load')
  return frame
}

describe('mail on a phone', () => {
  it('fits a 600-px HTML mail into a 375-px screen: code and button whole, no sideways scrolling, frame as tall as the mail', async () => {
    const page = await openPage({ width: 375 })
    const address = await generate(page)
    const html = readFileSync(new URL('../fixtures/mail/newsletter-600.html', import.meta.url), 'utf8')
    await send(address, { subject: 'Confirm your Acme account', html, text: 'Your code is 482913.' })
    await page.locator('#temp-email').getByRole('button', { name: /Confirm your Acme account/ }).click()
    const frame = await mailFrame(page)
    await frame.locator('#confirm').waitFor()

    // Inside the frame: nothing wider than the frame, nothing taller (the page scrolls, not the frame).
    await page.waitForFunction(() => {
      const doc = document.querySelector<HTMLIFrameElement>('iframe[sandbox]')?.contentDocument?.scrollingElement
      return doc ? doc.scrollHeight <= doc.clientHeight + 1 : false
    })
    const metrics = await frame.evaluate(() => {
      const root = document.scrollingElement!
      const box = (id: string) => {
        const r = document.getElementById(id)!.getBoundingClientRect()
        return { left: r.left, right: r.right, width: r.width }
      }
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, code: box('code'), button: box('confirm'), view: window.innerWidth }
    })
    expect(metrics.scrollWidth).toBeLessThanOrEqual(metrics.clientWidth)
    for (const part of [metrics.code, metrics.button]) {
      expect(part.left).toBeGreaterThanOrEqual(0)
      expect(part.right).toBeLessThanOrEqual(metrics.view)
    }
    // The page itself does not scroll sideways either.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await page.context().close()
  })

  it('makes the links of a text mail safe links and lists files as people name them', async () => {
    const page = await openPage({ width: 375 })
    const address = await generate(page)
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwHwyBNAMAPQ0H+QKV6+gAAAAASUVORK5CYII=', 'base64')
    await send(address, {
      subject: 'Your invoice',
      text: 'Pay at https://acme.example/pay?invoice=7. Thanks!',
      html: '<p>Invoice attached.</p><img src="cid:logo@acme" alt="Acme">',
      attachments: [
        { filename: 'logo.png', content: png, contentType: 'image/png', cid: 'logo@acme' },
        { filename: 'invoice.pdf', content: Buffer.alloc(13 * 1024, 1), contentType: 'application/pdf' },
      ],
    })
    await send(address, { subject: 'Empty', text: '' })
    const tool = page.locator('#temp-email')
    await tool.getByRole('button', { name: /Empty/ }).waitFor()
    expect(await tool.getByRole('button', { name: /Empty/ }).textContent()).toContain('(no text)')

    await tool.getByRole('button', { name: /Your invoice/ }).click()
    await tool.getByRole('link', { name: 'Download invoice.pdf' }).waitFor()
    expect(await tool.getByText('PDF document, 13 KB').count()).toBe(1)
    // The logo is shown inside the mail, not offered again as a file.
    expect(await tool.getByRole('link', { name: 'Download logo.png' }).count()).toBe(0)

    await tool.getByRole('button', { name: 'Text', exact: true }).click()
    const link = tool.getByRole('link', { name: 'https://acme.example/pay?invoice=7' })
    expect(await link.getAttribute('href')).toBe('https://acme.example/pay?invoice=7')
    expect(await link.getAttribute('target')).toBe('_blank')
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer')
    await page.context().close()
  })
})

describe('right to left', () => {
  it('shows an English mail in the Arabic UI from the start of its subject, each sender text in its own direction', async () => {
    const page = await openPage({ width: 375, language: 'ar' })
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl')
    const address = await generate(page, 'إنشاء بريد')
    const subject = 'Your Acme verification code is 482913: please confirm your new account today'
    await send(address, { subject, text: 'Your code is 482913.' })
    const tool = page.locator('#temp-email')
    const row = tool.getByTestId('inbox-message').first()
    await row.waitFor()
    const shown = row.locator('span[dir="auto"]', { hasText: 'Your Acme verification' })
    // Its own direction (left to right) although the page is right to left, so the cut falls at its end.
    expect(await shown.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr')
    const start = await shown.evaluate((el) => {
      const text = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE)!
      const range = document.createRange()
      range.setStart(text, 0)
      range.setEnd(text, 4)
      const first = range.getBoundingClientRect()
      const box = el.getBoundingClientRect()
      return { firstLeft: first.left, firstRight: first.right, boxLeft: box.left, boxRight: box.right, cut: el.scrollWidth > el.clientWidth }
    })
    // At 375 px the subject is too long for its line: cut, but its first word is in view.
    expect(start.cut).toBe(true)
    expect(start.firstLeft).toBeGreaterThanOrEqual(start.boxLeft - 1)
    expect(start.firstRight).toBeLessThanOrEqual(start.boxRight + 1)
    // The sender's name reads in its own direction too.
    expect(await row.locator('span[dir="auto"]', { hasText: 'Acme Billing' }).count()).toBe(1)
    await page.context().close()
  })
})

describe('errors where they happen, and the keyboard', () => {
  /** The text of the elements `aria-describedby` names: what a screen reader says with the field. */
  const description = (locator: ReturnType<Page['locator']>) =>
    locator.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim())

  it('shows a refused sign-in at the fields, not only in a toast', async () => {
    const page = await openPage()
    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Email').fill('nobody@example.com')
    await dialog.getByLabel('Password').fill('wrong-password')
    await dialog.getByRole('button', { name: 'Sign In' }).click()
    const password = dialog.getByLabel('Password')
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true')
    expect(await description(password)).toBe('Invalid email or password')
    expect(await description(dialog.getByLabel('Email'))).toBe('Invalid email or password')
    // Editing a field takes the error away: it was about what was sent.
    await password.fill('another-try')
    expect(await password.getAttribute('aria-invalid')).toBeNull()
    await page.context().close()
  })

  it('closes an expanded message with Escape and puts focus back on its row', async () => {
    const page = await openPage()
    const address = await generate(page)
    await send(address, { subject: 'Press Escape', text: 'Closing with the keyboard.' })
    const tool = page.locator('#temp-email')
    const row = tool.getByRole('button', { name: /Press Escape/ })
    await row.click()
    await expect.poll(() => row.getAttribute('aria-expanded')).toBe('true')
    await page.keyboard.press('Escape')
    await expect.poll(() => row.getAttribute('aria-expanded')).toBe('false')
    await expect.poll(() => row.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.context().close()
  })

  it('keeps the account dialog inside a 375-px screen', async () => {
    const page = await openPage({ width: 375 })
    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('tab', { name: 'Create Account' }).click()
    await dialog.getByLabel('Password').waitFor()
    const box = (await dialog.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(375)
    expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await page.context().close()
  })
})
