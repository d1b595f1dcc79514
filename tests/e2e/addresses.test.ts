import nodemailer from 'nodemailer'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { startStack, waitFor, type Stack } from '../support/stack'

let stack: Stack
let browser: Browser

beforeAll(async () => {
  // Two active addresses per client, so the limit is reached within the test.
  stack = await startStack({ withWeb: true, env: { MAX_ACTIVE_ADDRESSES_PER_IP: '2' } })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const addressValue = (page: Page) => page.locator('#temp-email-address').inputValue()

async function waitForAddressChange(page: Page, old: string | null): Promise<string> {
  await page.waitForFunction((prev) => {
    const value = document.querySelector<HTMLInputElement>('#temp-email-address')?.value ?? ''
    return value.includes('@') && value !== prev
  }, old)
  return addressValue(page)
}

describe('addresses you can keep', () => {
  it('keeps every address of the browser to switch between, says the limit in the server’s words, and releases one to make room', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } })
    const page = await context.newPage()
    await page.goto(stack.apiUrl)
    const tool = page.locator('#temp-email')
    await tool.getByRole('button', { name: 'Generate Email' }).click()
    const first = await waitForAddressChange(page, null)
    await tool.getByRole('button', { name: 'New Address' }).click()
    const second = await waitForAddressChange(page, first)

    const kept = tool.getByTestId('kept-addresses')
    await kept.getByRole('listitem').filter({ hasText: first }).waitFor()
    expect(await kept.getByRole('listitem').count()).toBe(2)
    expect(await kept.getByRole('listitem').filter({ hasText: second }).textContent()).toContain('In use')

    // Mail to the first address is still there after switching back to it.
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
    await transport.sendMail({ from: 'Acme <hello@acme.example>', to: first, subject: 'For the first address', text: 'Still here.' })
    await kept.getByRole('button', { name: `Switch ${first}` }).click()
    expect(await addressValue(page)).toBe(first)
    await tool.getByRole('button', { name: /For the first address/ }).waitFor()

    // The third address is over the limit: the server's sentence, at the form, with the way out.
    await tool.getByRole('button', { name: 'New Address' }).click()
    const alert = tool.getByRole('alert').filter({ hasText: 'active addresses' })
    await alert.waitFor()
    expect(await alert.textContent()).toContain('Too many active addresses from your network: everyone on it shares the limit.')
    expect(await alert.textContent()).not.toContain('Failed to generate temporary email')
    // Said once: no toast repeats it.
    expect(await page.locator('[data-slot="toast"]', { hasText: 'active addresses' }).count()).toBe(0)
    await alert.getByRole('button', { name: 'Release an old address' }).click()
    await page.waitForFunction(() => document.activeElement?.id === 'kept-addresses-title')

    await kept.getByRole('button', { name: `Release ${second}` }).click()
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Release' }).click()
    await page.locator('[data-slot="toast"]', { hasText: 'Address Released' }).waitFor()
    await waitFor(async () => (await kept.getByRole('listitem').count()) === 1, 20_000, 'the released address to leave the list')
    expect((await fetch(`${stack.apiUrl}/api/email/${encodeURIComponent(second)}`)).status).toBe(404)
    expect(await tool.getByRole('alert').filter({ hasText: 'active addresses' }).count()).toBe(0)

    // Its place is free again.
    await tool.getByRole('button', { name: 'New Address' }).click()
    const third = await waitForAddressChange(page, first)
    expect(third).not.toBe(second)
    // Leave the client's places free for the next test.
    for (const address of [first, third]) await fetch(`${stack.apiUrl}/api/email/${encodeURIComponent(address)}`, { method: 'DELETE' })
    await context.close()
  })

  it('deletes a message with Undo, and deletes it on the server once Undo has passed', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(stack.apiUrl)
    const tool = page.locator('#temp-email')
    await tool.getByRole('button', { name: 'Generate Email' }).click()
    const address = await waitForAddressChange(page, null)
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
    await transport.sendMail({ from: 'Acme <hello@acme.example>', to: address, subject: 'Delete me', text: 'Bye.' })
    const row = tool.getByRole('button', { name: /Delete me/ })
    await row.click()
    await tool.getByRole('button', { name: 'Delete', exact: true }).click()
    await row.waitFor({ state: 'detached' })
    await page.locator('[data-slot="toast"]', { hasText: 'Message Deleted' }).getByRole('button', { name: 'Undo' }).click()
    await row.waitFor()
    const inbox = async () => ((await (await fetch(`${stack.apiUrl}/api/email/${encodeURIComponent(address)}`)).json()) as { messages: unknown[] }).messages.length
    expect(await inbox()).toBe(1)

    await row.click()
    await tool.getByRole('button', { name: 'Delete', exact: true }).click()
    await row.waitFor({ state: 'detached' })
    await waitFor(async () => (await inbox()) === 0, 20_000, 'the server to delete the message after the Undo time')
    await context.close()
  })
})
