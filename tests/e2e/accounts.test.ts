import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { startStack, type Stack } from '../support/stack'

const SETUP_KEY = 'e2e-setup-key-0123456789abcdef'
let stack: Stack
let browser: Browser

beforeAll(async () => {
  stack = await startStack({ withWeb: true, env: { ADMIN_SETUP_KEY: SETUP_KEY } })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

async function newPage(): Promise<Page> {
  const context = await browser.newContext()
  return context.newPage()
}

const toast = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).first()

async function openAccountDialog(page: Page, name: 'Sign In' | 'Account') {
  await page.getByRole('banner').getByRole('button', { name, exact: true }).click()
  return page.getByRole('dialog')
}

describe('accounts, owner setup and analytics in the browser', () => {
  it('registers, signs out, signs in; a plain user is refused; the owner sees and handles a contact message', async () => {
    const email = `person${Date.now()}@example.com`
    const password = 'secret-pass-1'
    const page = await newPage()
    await page.goto(`${stack.apiUrl}/analytics`)
    await page.getByRole('heading', { name: 'Authentication Required' }).waitFor()
    await expect(page.getByRole('link', { name: 'Go to Home Page' }).isVisible()).resolves.toBe(true)

    // Register.
    let dialog = await openAccountDialog(page, 'Sign In')
    await dialog.getByRole('tab', { name: 'Create Account' }).click()
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByLabel('Password').fill(password)
    await dialog.locator('form').getByRole('button', { name: 'Create Account' }).click()
    await toast(page, 'Account Created').waitFor()
    await dialog.waitFor({ state: 'detached' })
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toMatch(/^ey/)

    // The signed-in plain user is refused the dashboard.
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor()
    await page.getByText('Your role: user').waitFor()
    await page.getByText('Only admins and owners can view analytics data').waitFor()
    expect(await page.getByRole('banner').getByRole('link', { name: 'Analytics', exact: true }).count()).toBe(0)

    // Sign out, then sign in again.
    dialog = await openAccountDialog(page, 'Account')
    await dialog.getByText(email).waitFor()
    await dialog.getByRole('button', { name: 'Sign Out', exact: true }).click()
    await toast(page, 'Logged Out').waitFor()
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull()
    await page.getByRole('heading', { name: 'Authentication Required' }).waitFor()

    dialog = await openAccountDialog(page, 'Sign In')
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByLabel('Password').fill('wrong-password')
    await dialog.locator('form').getByRole('button', { name: 'Sign In' }).click()
    await toast(page, 'Login Failed').waitFor()
    await dialog.getByLabel('Password').fill(password)
    await dialog.locator('form').getByRole('button', { name: 'Sign In' }).click()
    await toast(page, 'Welcome back').waitFor()
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor()

    // Owner setup: the key is shown while setup is open; Auto-fill, then promote.
    await page.getByRole('banner').getByRole('link', { name: 'Admin Setup', exact: true }).click()
    await page.getByTestId('setup-key').filter({ hasText: SETUP_KEY }).waitFor()
    await page.getByRole('button', { name: 'Promote to Owner' }).click()
    await toast(page, 'Please fill all fields').waitFor()
    await page.getByRole('button', { name: 'Auto-fill' }).click()
    expect(await page.getByLabel('Email').inputValue()).toBe(email)
    await page.getByRole('button', { name: 'Promote to Owner' }).click()
    await toast(page, 'You have been promoted to Owner. Now you can access Analytics.').waitFor()
    await page.getByRole('heading', { name: 'Setup is complete' }).waitFor()
    const analyticsLink = page.getByRole('banner').getByRole('link', { name: 'Analytics', exact: true })
    await analyticsLink.waitFor()

    // A visitor sends a contact message from /contact.
    const subject = `Question ${Date.now()}`
    const visitor = await newPage()
    await visitor.goto(`${stack.apiUrl}/contact`)
    const form = visitor.getByTestId('contact-form-page')
    await form.getByLabel('Name').fill('Vera Visitor')
    await form.getByLabel('Email').fill('vera@example.com')
    await form.getByLabel('Subject').fill(subject)
    await form.getByLabel('Message').fill('How long do addresses last?')
    await form.getByRole('button', { name: 'Send Message' }).click()
    await toast(visitor, 'Message Sent Successfully!').waitFor()

    // The owner's dashboard shows it; Mark as Read changes its badge.
    await analyticsLink.click()
    await page.getByRole('heading', { name: 'Analytics Dashboard' }).waitFor()
    const card = page.getByTestId('contact-card').filter({ hasText: subject })
    await card.waitFor()
    await expect(card.getByTestId('contact-status').textContent()).resolves.toBe('New')
    await card.getByRole('button', { name: 'Mark as Read' }).click()
    await card.getByTestId('contact-status').filter({ hasText: 'Read' }).waitFor()
    expect(await card.getByRole('button', { name: 'Mark as Read' }).count()).toBe(0)
    // Route changes were counted: the visitor's /contact shows among the popular pages, the visitor among today's.
    await page.getByText('/contact', { exact: true }).waitFor()
    await page.getByText('Top Countries').waitFor()
    await page.getByRole('button', { name: 'Last 7 days' }).click()
    await page.getByRole('heading', { name: 'Overview (last 7 days)' }).waitFor()

    // Setup stays closed: another visitor sees no key.
    await visitor.goto(`${stack.apiUrl}/admin-setup`)
    await visitor.getByRole('heading', { name: 'Setup is complete' }).waitFor()
    expect(await visitor.getByTestId('setup-key').count()).toBe(0)
  })

  it('saves addresses generated while signed in, switches between them, and deletes them with the account', async () => {
    const page = await newPage()
    await page.goto(stack.apiUrl)
    let dialog = await openAccountDialog(page, 'Sign In')
    await dialog.getByRole('tab', { name: 'Create Account' }).click()
    await dialog.getByLabel('Email').fill(`saver${Date.now()}@example.com`)
    await dialog.getByLabel('Password').fill('secret-pass-2')
    await dialog.locator('form').getByRole('button', { name: 'Create Account' }).click()
    await dialog.waitFor({ state: 'detached' })

    const field = page.getByLabel('Your temporary address')
    await page.getByRole('button', { name: 'Generate Email' }).click()
    await field.waitFor()
    const first = await field.inputValue()
    await page.getByRole('button', { name: 'New Address' }).click()
    await page.waitForFunction((old) => (document.querySelector('#temp-email-address') as HTMLInputElement | null)?.value !== old, first)
    const second = await field.inputValue()
    expect(second).not.toBe(first)

    dialog = await openAccountDialog(page, 'Account')
    await dialog.getByRole('listitem').filter({ hasText: first }).waitFor()
    await dialog.getByRole('listitem').filter({ hasText: second }).waitFor()
    await dialog.getByRole('button', { name: `Open ${first}` }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.waitForFunction((want) => (document.querySelector('#temp-email-address') as HTMLInputElement | null)?.value === want, first)

    dialog = await openAccountDialog(page, 'Account')
    page.once('dialog', () => expect.fail('the browser’s own confirm is not used'))
    await dialog.getByLabel('Your password').fill('secret-pass-2')
    await dialog.getByRole('button', { name: 'Delete Account' }).click()
    const ask = page.getByTestId('confirm-dialog')
    expect(await ask.textContent()).toContain('Are you sure you want to delete your account? This action cannot be undone.')
    await ask.getByRole('button', { name: 'Delete Account' }).click()
    await toast(page, 'Your account and all associated data has been deleted.').waitFor()
    for (const address of [first, second]) {
      expect((await fetch(`${stack.apiUrl}/api/email/${encodeURIComponent(address)}`)).status).toBe(404)
    }
  })

  it('changes the password in the account dialog: the other device is signed out, this one stays, only the new password works', async () => {
    const email = `changer${Date.now()}@example.com`
    const laptop = await newPage()
    await laptop.goto(stack.apiUrl)
    let dialog = await openAccountDialog(laptop, 'Sign In')
    await dialog.getByRole('tab', { name: 'Create Account' }).click()
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByLabel('Password').fill('first-pass-1')
    await dialog.locator('form').getByRole('button', { name: 'Create Account' }).click()
    await dialog.waitFor({ state: 'detached' })

    // A second device signs in to the same account (its token is what a thief would hold).
    const phone = await newPage()
    await phone.goto(stack.apiUrl)
    dialog = await openAccountDialog(phone, 'Sign In')
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByLabel('Password').fill('first-pass-1')
    await dialog.locator('form').getByRole('button', { name: 'Sign In' }).click()
    await toast(phone, 'Welcome back').waitFor()
    const phoneToken = await phone.evaluate(() => localStorage.getItem('auth_token'))

    // On the laptop: a too-short password is refused in the form, a wrong current one by the server, then it works.
    const laptopToken = await laptop.evaluate(() => localStorage.getItem('auth_token'))
    dialog = await openAccountDialog(laptop, 'Account')
    await dialog.getByRole('button', { name: 'Change Password' }).click()
    await dialog.getByLabel('Current password').fill('first-pass-1')
    await dialog.getByLabel('New password').fill('short')
    await dialog.getByRole('button', { name: 'Save New Password' }).click()
    await dialog.getByRole('alert').filter({ hasText: 'The new password must be at least 6 characters.' }).waitFor()
    await dialog.getByLabel('Current password').fill('not-the-pass')
    await dialog.getByLabel('New password').fill('second-pass-2')
    await dialog.getByRole('button', { name: 'Save New Password' }).click()
    await dialog.getByRole('alert').filter({ hasText: 'The current password is not correct.' }).waitFor()
    await dialog.getByLabel('Current password').fill('first-pass-1')
    await dialog.getByRole('button', { name: 'Save New Password' }).click()
    await toast(laptop, 'Password Changed').waitFor()
    const freshToken = await laptop.evaluate(() => localStorage.getItem('auth_token'))
    expect(freshToken).toMatch(/^ey/)
    expect(freshToken).not.toBe(laptopToken)

    // The laptop stays signed in across a reload; the phone's token no longer works and the phone becomes a guest.
    await laptop.reload()
    await laptop.getByRole('banner').getByRole('button', { name: 'Account', exact: true }).waitFor()
    expect((await fetch(`${stack.apiUrl}/api/auth/me`, { headers: { authorization: `Bearer ${phoneToken}` } })).status).toBe(401)
    await phone.reload()
    // The header reads "Sign In" while the stored token is being checked: the token is gone once /api/auth/me said 401.
    await expect.poll(() => phone.evaluate(() => localStorage.getItem('auth_token'))).toBeNull()
    await phone.getByRole('banner').getByRole('button', { name: 'Sign In', exact: true }).waitFor()

    // Only the new password signs in.
    dialog = await openAccountDialog(phone, 'Sign In')
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByLabel('Password').fill('first-pass-1')
    await dialog.locator('form').getByRole('button', { name: 'Sign In' }).click()
    await toast(phone, 'Login Failed').waitFor()
    await dialog.getByLabel('Password').fill('second-pass-2')
    await dialog.locator('form').getByRole('button', { name: 'Sign In' }).click()
    await toast(phone, 'Welcome back').waitFor()

    // Sign out everywhere from the phone: both devices end up signed out.
    dialog = await openAccountDialog(phone, 'Account')
    await dialog.getByRole('button', { name: 'Sign Out Everywhere' }).click()
    await toast(phone, 'You have been signed out on every device.').waitFor()
    await laptop.reload()
    await laptop.getByRole('banner').getByRole('button', { name: 'Sign In', exact: true }).waitFor()
  })
})
