import AxeBuilder from '@axe-core/playwright'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { startStack, waitFor, type Stack } from '../support/stack'

// Issue 32, "UX, second round": what a new user sees at 375 and 1280 px, in English and Arabic.
let stack: Stack
let browser: Browser

beforeAll(async () => {
  stack = await startStack({ withWeb: true, env: { MAX_ACTIVE_ADDRESSES_PER_IP: '50' } })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

function send(to: string, mail: SendMailOptions) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
  return transport.sendMail({ from: 'Sender Example <sender@example.com>', to, ...mail })
}

const PHONE = { width: 375, height: 740 }
const DESKTOP = { width: 1280, height: 900 }

async function openPage(viewport: { width: number; height: number }, language = 'en'): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await browser.newContext({ viewport })
  await context.addInitScript((lng) => localStorage.setItem('tempbox-language', lng), language)
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text())
  })
  await page.goto(stack.apiUrl)
  return { page, context, errors }
}

async function generate(page: Page, name = 'Generate Email'): Promise<string> {
  await page.locator('#temp-email').getByRole('button', { name }).click()
  const field = page.locator('#temp-email-address')
  await field.waitFor()
  return field.inputValue()
}

/** The element with focus: its tag or id, whether Chromium would draw a focus ring there, and the outline it has. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement
    return { element: el.id || el.tagName, ringExpected: el.matches(':focus-visible'), outline: getComputedStyle(el).outlineStyle }
  })
}

/** The width Chromium gives its own clear button inside the search field `selector` (0 when it is hidden). */
async function nativeClearButtonWidth(page: Page, selector: string): Promise<number> {
  interface DomNode { backendNodeId: number; attributes?: string[]; children?: DomNode[]; shadowRoots?: DomNode[] }
  const cdp = await page.context().newCDPSession(page)
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 })
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector })
    const { node } = (await cdp.send('DOM.describeNode', { nodeId, depth: -1, pierce: true })) as { node: DomNode }
    const find = (n: DomNode): DomNode | undefined =>
      n.attributes?.includes('-webkit-search-cancel-button') ? n : [...(n.shadowRoots ?? []), ...(n.children ?? [])].map(find).find(Boolean)
    const button = find(node)
    if (!button) throw new Error(`no built-in clear button in ${selector}`)
    const box = await cdp.send('DOM.getBoxModel', { backendNodeId: button.backendNodeId }).catch(() => null)
    return box?.model.width ?? 0
  } finally {
    await cdp.detach()
  }
}

async function signInDialog(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Sign In', exact: true }).click()
  return page.getByRole('dialog')
}

describe('new mail, wherever you are', () => {
  for (const [name, viewport, where] of [
    ['375 px with the address at the foot of the window', PHONE, 'address'],
    ['1280 px from the top of the page', DESKTOP, 'top'],
  ] as const) {
    it(`at ${name}, a new mail shows a toast and a pill by the address that brings the list into view`, async () => {
      const { page, context } = await openPage(viewport)
      const address = await generate(page)
      await page.locator('#temp-email').getByText(/No messages yet/).waitFor()
      // The pill sits just under the field: leave room for it.
      if (where === 'address') await page.evaluate(() => window.scrollBy(0, document.getElementById('temp-email-address')!.getBoundingClientRect().bottom - window.innerHeight + 120))
      else await page.evaluate(() => window.scrollTo(0, 0))
      await send(address, { subject: 'Pill check', text: 'It works...' })

      await page.locator('[data-slot="toast"]', { hasText: 'New mail from Sender Example' }).waitFor()
      const pill = page.getByTestId('new-mail-pill')
      await pill.waitFor({ state: 'attached' })
      expect(await pill.textContent()).toBe('New mail: 1')
      // Beside the address: on screen whenever the address is. From the top of the page the toast is what is seen; a
      // person then scrolls down to the address and finds the pill there while the list is still below.
      if (where === 'top') await pill.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().bottom - window.innerHeight + 120))
      expect(await pill.isVisible()).toBe(true)
      expect(await pill.evaluate((el) => el.getBoundingClientRect().bottom <= window.innerHeight)).toBe(true)

      await pill.click()
      const row = page.getByTestId('inbox-message').first()
      await waitFor(async () => {
        const box = await row.boundingBox()
        return box !== null && box.y >= 0 && box.y < viewport.height && (await pill.count()) === 0
      }, 10_000, 'the new row in view, the pill gone')
      // Nothing was cut from "It works...": it gets no second ellipsis.
      expect(await row.textContent()).toContain('It works...')
      expect(await row.textContent()).not.toContain('…')
      await context.close()
    })
  }
})

describe('an account on two devices', () => {
  it('signing in on a second device opens the most recent saved address there and names Open for its address; signing out forgets them', async () => {
    const account = { email: `two-devices-${Date.now()}@example.com`, password: 'secret-pass-2' }
    const laptop = await openPage(DESKTOP)
    let dialog = await signInDialog(laptop.page)
    await dialog.getByRole('tab', { name: 'Create Account' }).click()
    await dialog.getByLabel('Email').fill(account.email)
    await dialog.getByLabel('Password').fill(account.password)
    await dialog.locator('form').getByRole('button', { name: 'Create Account' }).click()
    await dialog.waitFor({ state: 'detached' })
    const first = await generate(laptop.page)
    await laptop.page.locator('#temp-email').getByRole('button', { name: 'New Address' }).click()
    await waitFor(async () => (await laptop.page.locator('#temp-email-address').inputValue()) !== first, 20_000, 'the second address')
    const second = await laptop.page.locator('#temp-email-address').inputValue()

    const { page: phone, context } = await openPage(PHONE)
    const tool = phone.locator('#temp-email')
    await tool.getByText('Generate an address to start receiving mail.').waitFor()
    dialog = await signInDialog(phone)
    await dialog.getByLabel('Email').fill(account.email)
    await dialog.getByLabel('Password').fill(account.password)
    await dialog.locator('form').getByRole('button', { name: 'Sign In' }).click()
    await dialog.waitFor({ state: 'detached' })
    // In the tool itself, not only under Account: the newest opened, both listed.
    await waitFor(async () => (await tool.locator('#temp-email-address').count()) === 1, 20_000, 'an address open on the phone')
    expect(await tool.locator('#temp-email-address').inputValue()).toBe(second)
    await tool.getByText(/No messages yet/).waitFor()
    expect(await tool.getByTestId('kept-addresses').getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining(second),
      expect.stringContaining(first),
    ])

    await phone.getByRole('banner').getByRole('button', { name: 'Account', exact: true }).click()
    dialog = phone.getByRole('dialog')
    await dialog.getByRole('button', { name: `Open ${first}`, exact: true }).waitFor()
    await dialog.getByRole('button', { name: 'Sign Out', exact: true }).click()
    await tool.getByText('Generate an address to start receiving mail.').waitFor()
    expect(await tool.locator('#temp-email-address').count()).toBe(0)
    expect(await tool.getByTestId('kept-addresses').count()).toBe(0)
    expect(await tool.getByText(/No messages yet/).count()).toBe(0)
    await context.close()
    await laptop.context.close()
  })
})

describe('right to left', () => {
  it('in Arabic keeps From and To beside their labels, ".eml" reads as written, the unread pill on one line, and names start with the words seen', async () => {
    const { page, context } = await openPage(DESKTOP, 'ar')
    const first = await generate(page, 'إنشاء بريد')
    const tool = page.locator('#temp-email')
    // A second address, so this browser's list has a switch button (for the first) beside the release buttons.
    await tool.getByRole('button', { name: 'عنوان جديد' }).click()
    await waitFor(async () => (await page.locator('#temp-email-address').inputValue()) !== first, 20_000, 'the second address')
    const address = await page.locator('#temp-email-address').inputValue()
    await send(address, { subject: 'Your code', text: 'Your code is 482913.' })
    await send(address, { subject: 'Second', text: 'Hello again.' })
    await waitFor(async () => (await tool.getByTestId('inbox-message').count()) === 2, 20_000, 'both messages listed')
    const kept = tool.getByTestId('kept-addresses')
    expect(await kept.getByRole('button', { name: `تبديل ${first}`, exact: true }).count()).toBe(1)
    expect(await kept.getByRole('button', { name: /^التخلّي / }).count()).toBe(2)

    // axe: the code chips, the switch and release buttons (Arabic) — the accessible name starts with the visible text.
    const axe = await new AxeBuilder({ page }).include('#temp-email').withRules(['label-content-name-mismatch']).analyze()
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])

    const pill = tool.getByTestId('unread-count')
    await page.setViewportSize(PHONE)
    expect(await pill.evaluate((el) => el.getClientRects().length === 1 && el.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(el).lineHeight))).toBe(true)
    await page.setViewportSize(DESKTOP)

    await tool.getByTestId('inbox-message').filter({ hasText: 'Your code' }).getByRole('button').first().click()
    const from = tool.locator('dl dt').first()
    await from.waitFor()
    const gap = await from.evaluate((dt) => {
      const dd = dt.nextElementSibling!.querySelector('bdi')!
      const range = document.createRange()
      range.selectNodeContents(dd)
      // Right to left: the label on the right, its value's text just to its left.
      return dt.getBoundingClientRect().left - range.getBoundingClientRect().right
    })
    expect(gap).toBeGreaterThanOrEqual(0)
    expect(gap).toBeLessThan(40)

    const eml = tool.locator('a[download] bdi')
    expect(await eml.textContent()).toBe('.eml')
    expect(await eml.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr')
    await context.close()
  })
})

describe('nothing covering the page', () => {
  it('at 375 px: focus on the new address, toasts at the bottom, no scroll buttons while a field has focus', async () => {
    const { page, context } = await openPage(PHONE)
    await generate(page)
    await page.waitForFunction(() => document.activeElement?.id === 'temp-email-address')
    const toast = page.locator('[data-slot="toast"]', { hasText: 'Email Generated' })
    await toast.waitFor()
    const box = (await toast.boundingBox())!
    expect(box.y).toBeGreaterThan(PHONE.height / 2)
    // Above the scroll buttons' place (bottom-6, 2 × 36 px and a gap).
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height - 24 - 80)

    await page.evaluate(() => window.scrollTo(0, 900))
    await page.getByTestId('scroll-buttons').waitFor()
    await page.getByLabel('When should this address be deleted?').focus()
    await page.getByTestId('scroll-buttons').waitFor({ state: 'detached' })
    await context.close()
  })

  it('a direct load of /#tools scrolls to the tools', async () => {
    const context = await browser.newContext({ viewport: DESKTOP })
    const page = await context.newPage()
    await page.goto(`${stack.apiUrl}/#tools`)
    await page.locator('#temp-email').waitFor()
    await waitFor(async () => Math.abs((await page.locator('#tools').boundingBox())!.y - 80) < 4, 20_000, '#tools at the top of the window')
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200)
    // Reading goes on from there (focus), with no ring drawn around the whole section.
    expect(await focused(page)).toMatchObject({ element: 'tools', outline: 'none' })
    await context.close()
  })

  it('a section or heading focused from code draws no ring, even after keyboard use', async () => {
    const { page, context } = await openPage(DESKTOP)
    // From the keyboard Chromium would ring what code focuses next (:focus-visible): the footer's Tools link.
    const link = page.getByRole('contentinfo').getByRole('link', { name: 'Tools', exact: true })
    await link.focus()
    await page.keyboard.press('Enter')
    await waitFor(async () => (await focused(page)).element === 'tools', 20_000, 'focus on the tools section')
    expect(await focused(page)).toEqual({ element: 'tools', ringExpected: true, outline: 'none' })

    // The new-mail pill, pressed with Enter, brings the inbox heading into view and focus.
    const address = await generate(page)
    await page.evaluate(() => window.scrollTo(0, 0))
    await send(address, { subject: 'Ring check', text: 'Hello.' })
    const pill = page.getByTestId('new-mail-pill')
    await pill.waitFor({ state: 'attached' })
    // Focused where it is, as Tab would find it: scrolling it to the middle could bring the list into view.
    await pill.evaluate((el: HTMLElement) => el.focus({ preventScroll: true }))
    await page.keyboard.press('Enter')
    await waitFor(async () => (await focused(page)).element === 'H3', 20_000, 'focus on the inbox heading')
    expect(await focused(page)).toEqual({ element: 'H3', ringExpected: true, outline: 'none' })
    await context.close()
  })

  it('the inbox search has one clear button, and while filtering the heading counts the inbox, the matches and the unread apart', async () => {
    const { page, context } = await openPage(DESKTOP)
    const address = await generate(page)
    const tool = page.locator('#temp-email')
    await send(address, { subject: 'First', text: 'One.' })
    await send(address, { subject: 'Second', text: 'Two.' })
    await waitFor(async () => (await tool.getByTestId('inbox-message').count()) === 2, 20_000, 'both messages listed')

    const search = tool.getByRole('searchbox', { name: 'Search messages' })
    await search.fill('nothing like this')
    await tool.getByTestId('match-count').waitFor()
    const heading = tool.getByRole('heading', { level: 3, name: /^Inbox/ })
    expect((await heading.innerText()).replace(/\s+/g, ' ')).toBe('Inbox (2) Matches: 0 Unread: 2')
    expect(await tool.getByRole('button', { name: 'Clear search' }).count()).toBe(1)
    expect(await nativeClearButtonWidth(page, '#temp-email input[type="search"]')).toBe(0)

    await tool.getByRole('button', { name: 'Clear search' }).click()
    await waitFor(async () => (await tool.getByTestId('inbox-message').count()) === 2, 20_000, 'the whole inbox again')
    expect(await search.inputValue()).toBe('')
    await context.close()
  })
})

describe('no CSP error in the console', () => {
  it('opening a menu and a dialog logs no violation', async () => {
    const { page, context, errors } = await openPage(DESKTOP)
    const violations: string[] = []
    page.on('console', (msg) => {
      if (/Content Security Policy|CSP violation/i.test(msg.text())) violations.push(msg.text())
    })
    await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.sample}`)))
    await page.reload()
    await page.getByTestId('language-picker-header').click()
    await page.getByTestId('language-option-en').waitFor()
    await page.keyboard.press('Escape')
    await page.getByRole('banner').getByRole('button', { name: 'Sign In', exact: true }).click()
    await page.getByRole('dialog').waitFor()
    await page.getByRole('dialog').getByLabel('Email').waitFor()
    // The scroll lock's rules now apply (they were refused before), and leave with the dialog.
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden')
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    await waitFor(async () => (await page.evaluate(() => getComputedStyle(document.body).overflow)) !== 'hidden', 20_000, 'the scroll lock to end')
    expect(violations).toEqual([])
    expect(errors.filter((text) => /Content Security Policy/i.test(text))).toEqual([])
    await context.close()
  })
})
