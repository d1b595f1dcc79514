import nodemailer from 'nodemailer'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { startStack, waitFor, type Stack } from '../support/stack'

let stack: Stack
let browser: Browser

beforeAll(async () => {
  stack = await startStack({ withWeb: true })
  // The headless shell reads a granted notification permission back as denied: this file needs the full browser.
  browser = await launchBrowser({ fullChromium: true })
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

function send(to: string, subject: string, text = `Body of ${subject}`) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
  return transport.sendMail({ from: 'GitHub <noreply@github.example>', to, subject, text })
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
    await inbox.getByTestId('unread-count').filter({ hasText: 'Unread: 2' }).waitFor()
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
    await page.waitForFunction(() => (window as unknown as { __notifications: unknown[] }).__notifications.length === 1)
    const notes = await page.evaluate(() => (window as unknown as { __notifications: { title: string; body: string }[] }).__notifications)
    expect(notes).toEqual([{ title: 'New mail from GitHub', body: 'Your login code' }])
    expect(await page.title()).toMatch(/^\(1\) /)

    await setHidden(page, false)
    await page.evaluate(() => (window as unknown as { __clickNotification: (i: number) => void }).__clickNotification(0))
    const row = inbox.getByRole('button', { name: /Your login code/ })
    await waitFor(async () => (await row.getAttribute('aria-expanded')) === 'true', 20_000, 'the message to open')
    await page.locator('pre', { hasText: 'Body of Your login code' }).waitFor()
    await inbox.getByTestId('unread-count').waitFor({ state: 'detached' })
    await context.close()
  })
})

// Issue 16: the e2e list names it beside read state, which is what burns the address.
describe('an address that burns after read, in the browser', () => {
  it('says what will happen, is deleted when its first message is opened (which stays shown), and refuses the next mail', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(stack.apiUrl)
    const tool = page.locator('#temp-email')
    await tool.getByLabel('When should this address be deleted?').first().selectOption({ label: 'After I read its first message' })
    await tool.getByRole('button', { name: 'Generate Email' }).click()
    const field = tool.getByLabel('Your temporary address')
    await field.waitFor()
    const address = await field.inputValue()
    await tool.getByTestId('burn-notice').filter({ hasText: 'This address and its mail will be deleted after you read its first message.' }).waitFor()

    expect((await send(address, 'Your sign-in code', 'Your code is 482913')).response).toMatch(/^250 /)
    const row = tool.getByTestId('inbox-message').filter({ hasText: 'Your sign-in code' })
    await row.waitFor()
    await row.getByRole('button').first().click()

    const burned = tool.getByTestId('burned-notice')
    await burned.waitFor()
    expect(await burned.getByRole('alert').textContent()).toBe(
      'You read its first message, so this address and its mail have been deleted. Mail sent to it now is refused.',
    )
    // The kept copy's code is still a one-tap copy.
    expect(await burned.getByRole('button', { name: /^Code 482913/ }).count()).toBe(1)
    expect(await tool.getByLabel('Your temporary address').count()).toBe(0)

    const refused = await send(address, 'After the burn', 'hi').catch((error: { response?: string }) => error)
    expect((refused as { response?: string }).response).toBe('550 5.1.1 Mailbox unavailable: no such address, or it has expired')
    expect((await fetch(`${stack.apiUrl}/api/email/${address}`)).status).toBe(404)
    await context.close()
  })
})
