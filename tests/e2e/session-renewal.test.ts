import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { startStack, type Stack } from '../support/stack'

/**
 * The short-lived access token in a real browser: the stack issues tokens of 2 s, so a signed-in page outlives its
 * token at once, and everything that needs the account must go through the httpOnly refresh cookie.
 */
let stack: Stack
let browser: Browser

beforeAll(async () => {
  stack = await startStack({ withWeb: true, env: { ACCESS_TOKEN_TTL: '2s' } })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

/** Resolves once the token in localStorage has passed its `exp` (the browser and the api share this machine's clock). */
async function tokenExpired(page: Page): Promise<string> {
  const handle = await page.waitForFunction(
    () => {
      const token = localStorage.getItem('auth_token')
      const exp = token ? (JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp: number }).exp : 0
      return exp > 0 && Date.now() > exp * 1000 ? token : null
    },
    undefined,
    { polling: 100 },
  )
  return (await handle.jsonValue()) as string
}

describe('session renewal in the browser', () => {
  it('renews an expired access token through the httpOnly refresh cookie when the account is used', async () => {
    const email = `renewer${Date.now()}@example.com`
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(stack.apiUrl)
    let dialog = page.getByRole('dialog')
    await page.getByRole('banner').getByRole('button', { name: 'Sign In', exact: true }).click()
    await dialog.getByRole('tab', { name: 'Create Account' }).click()
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByLabel('Password').fill('renew-pass-1')
    await dialog.locator('form').getByRole('button', { name: 'Create Account' }).click()
    await dialog.waitFor({ state: 'detached' })

    // The refresh cookie is there for the browser to send, but no script can read it.
    const cookies = await context.cookies(stack.apiUrl + '/api/auth/refresh')
    expect(cookies.find((c) => c.name === 'tempbox_refresh')).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/auth' })
    expect(await page.evaluate(() => document.cookie)).not.toContain('tempbox_refresh')

    const expired = await tokenExpired(page)
    expect((await fetch(`${stack.apiUrl}/api/auth/me`, { headers: { authorization: `Bearer ${expired}` } })).status).toBe(401)

    // Opening the account reads its saved addresses: that request is renewed, and the dialog shows the account.
    const renewal = page.waitForResponse((res) => res.url().endsWith('/api/auth/refresh'))
    await page.getByRole('banner').getByRole('button', { name: 'Account', exact: true }).click()
    dialog = page.getByRole('dialog')
    expect((await renewal).status()).toBe(200)
    await dialog.getByText(email).waitFor()
    await dialog.getByText('No saved addresses yet.', { exact: false }).waitFor()
    const renewed = await page.evaluate(() => localStorage.getItem('auth_token'))
    expect(renewed).toMatch(/^ey/)
    expect(renewed).not.toBe(expired)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })

    // Past the renewed token's life too, an address generated while signed in is still saved to the account.
    await tokenExpired(page)
    await page.getByRole('button', { name: 'Generate Email' }).click()
    const field = page.getByLabel('Your temporary address')
    await field.waitFor()
    const address = await field.inputValue()
    await page.getByRole('banner').getByRole('button', { name: 'Account', exact: true }).click()
    await dialog.getByRole('listitem').filter({ hasText: address }).waitFor()
    expect(await page.getByRole('banner').getByRole('button', { name: 'Sign In', exact: true }).count()).toBe(0)
    await context.close()
  })
})
