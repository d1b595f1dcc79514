import nodemailer from 'nodemailer'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { startStack, waitFor, type Stack } from '../support/stack'

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

function send(to: string, subject: string) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
  return transport.sendMail({ from: 'GitHub <noreply@github.example>', to, subject, text: `Body of ${subject}` })
}

/**
 * Headless Chromium never hides its page: the test says when the tab is in the background by overriding the page's
 * visibility (what a real browser reports when the reader switches tabs) and firing the event a switch fires.
 */
const INSTRUMENT = () => {
  let hidden = false
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') })
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden })
  document.hasFocus = () => !hidden
  const w = window as unknown as { __setHidden: (h: boolean) => void; __notifications: { title: string; body: string }[]; __clickNotification: (i: number) => void }
  w.__setHidden = (h) => {
    hidden = h
    document.dispatchEvent(new Event('visibilitychange'))
  }
  // Records each `new Notification` (the real one still shows) so the test can read and click it.
  const Real = window.Notification
  const shown: Notification[] = []
  w.__notifications = []
  class Recorded extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options)
      shown.push(this)
      w.__notifications.push({ title, body: options?.body ?? '' })
    }
  }
  w.__clickNotification = (i) => shown[i]!.onclick?.(new Event('click'))
  window.Notification = Recorded as typeof Notification
}

async function openWithAddress(): Promise<{ context: BrowserContext; page: Page; address: string }> {
  const context = await browser.newContext()
  await context.grantPermissions(['notifications'], { origin: stack.apiUrl })
  await context.addInitScript(INSTRUMENT)
  const page = await context.newPage()
  await page.goto(stack.apiUrl)
  await page.locator('#temp-email').getByRole('button', { name: 'Generate Email' }).click()
  const field = page.locator('#temp-email').getByLabel('Your temporary address')
  await field.waitFor()
  return { context, page, address: await field.inputValue() }
}

const setHidden = (page: Page, hidden: boolean) => page.evaluate((h) => (window as unknown as { __setHidden: (h: boolean) => void }).__setHidden(h), hidden)

describe('read state, the title count and notifications in the browser', () => {
  it('shows new mail unread and bold, marks it read when opened, counts it in the background title', async () => {
    const { context, page, address } = await openWithAddress()
    await send(address, 'First code')
    await send(address, 'Second code')
    const inbox = page.locator('#temp-email')
    await inbox.getByTestId('unread-count').filter({ hasText: 'Unread: 2' }).waitFor({ timeout: 15_000 })
    const first = inbox.getByTestId('inbox-message').filter({ hasText: 'First code' })
    expect(await first.getAttribute('data-unread')).toBe('true')
    const title = await page.title()

    await setHidden(page, true)
    expect(await page.title()).toBe(`(2) ${title}`)
    await setHidden(page, false)
    expect(await page.title()).toBe(title)

    await first.getByRole('button', { name: /First code/ }).click()
    await inbox.getByTestId('unread-count').filter({ hasText: 'Unread: 1' }).waitFor()
    expect(await first.getAttribute('data-unread')).toBe('false')
    // The server kept it: a fresh load shows the same.
    await waitFor(async () => {
      const res = await fetch(`${stack.apiUrl}/api/email/${encodeURIComponent(address)}`)
      return ((await res.json()) as { unread: number }).unread === 1
    }, 10_000, 'the server to count one unread message')
    await page.reload()
    await inbox.getByTestId('unread-count').filter({ hasText: 'Unread: 1' }).waitFor()
    expect(await inbox.getByTestId('inbox-message').filter({ hasText: 'First code' }).getAttribute('data-unread')).toBe('false')
    await context.close()
  })

  it('notifies new mail in the background once turned on, and a click opens the message', async () => {
    const { context, page, address } = await openWithAddress()
    const inbox = page.locator('#temp-email')
    await inbox.getByRole('checkbox', { name: 'Desktop notifications' }).check()
    expect(await inbox.getByRole('checkbox', { name: 'Desktop notifications' }).isChecked()).toBe(true)
    expect(await inbox.getByRole('checkbox', { name: 'Play a sound' }).isChecked()).toBe(false)

    await setHidden(page, true)
    await send(address, 'Your login code')
    await page.waitForFunction(() => (window as unknown as { __notifications: unknown[] }).__notifications.length === 1, undefined, { timeout: 15_000 })
    const notes = await page.evaluate(() => (window as unknown as { __notifications: { title: string; body: string }[] }).__notifications)
    expect(notes).toEqual([{ title: 'New mail from GitHub', body: 'Your login code' }])
    expect(await page.title()).toMatch(/^\(1\) /)

    await setHidden(page, false)
    await page.evaluate(() => (window as unknown as { __clickNotification: (i: number) => void }).__clickNotification(0))
    const row = inbox.getByRole('button', { name: /Your login code/ })
    await waitFor(async () => (await row.getAttribute('aria-expanded')) === 'true', 10_000, 'the message to open')
    await page.locator('pre', { hasText: 'Body of Your login code' }).waitFor()
    await inbox.getByTestId('unread-count').waitFor({ state: 'detached' })
    await context.close()
  })
})
