import nodemailer from 'nodemailer'
import type { Browser } from 'playwright-core'
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

describe('"Why didn\'t my mail arrive?" in the inbox', { timeout: 180_000 }, () => {
  it('says nothing came yet, then shows a mail sent over SMTP as accepted, and opens the message from it', async () => {
    const page = await (await browser.newContext()).newPage()
    await page.goto(stack.apiUrl)
    const tool = page.locator('#temp-email')
    await tool.getByRole('button', { name: 'Generate Email' }).click()
    const field = tool.getByLabel('Your temporary address')
    await field.waitFor()
    const address = await field.inputValue()

    const toggle = tool.getByRole('button', { name: "Why didn't my mail arrive?" })
    await toggle.click()
    await tool
      .getByText("No mail server has tried to deliver to this address yet. If mail was sent, check the address for typos and look in the sender's outbox or error log.")
      .waitFor()

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
    const info = await transport.sendMail({ from: 'MyApp <noreply@myapp.test>', to: address, subject: 'Welcome to MyApp', text: 'Glad you are here.' })
    expect(info.response).toMatch(/^250/)
    transport.close()

    const entry = tool.getByTestId('delivery-entry').first()
    await tool.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => entry.getAttribute('data-result'), { timeout: 30_000 }).toBe('accepted')
    await expect(entry.getByText('Accepted', { exact: true }).count()).resolves.toBe(1)
    await expect(entry.getByText('The message was accepted and stored.').count()).resolves.toBe(1)
    await expect(entry.getByText(/^250 2\.\d\.\d$/).count()).resolves.toBe(1)

    await entry.getByRole('link', { name: 'Open the message' }).click()
    await tool.getByText('Glad you are here.').waitFor()
  })

  it('shows a refusal asked for with the +reject tag: refused, its reply, the reason in words and the tag', async () => {
    const page = await (await browser.newContext()).newPage()
    await page.goto(stack.apiUrl)
    const tool = page.locator('#temp-email')
    await tool.getByRole('button', { name: 'Generate Email' }).click()
    const field = tool.getByLabel('Your temporary address')
    await field.waitFor()
    const [local, domain] = (await field.inputValue()).split('@')

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
    const refused = await transport.sendMail({ from: 'noreply@myapp.test', to: `${local}+reject@${domain}`, subject: 'Never stored', text: 'x' }).catch((e: unknown) => e)
    transport.close()
    expect(refused).toMatchObject({ responseCode: 550 })

    await tool.getByRole('button', { name: "Why didn't my mail arrive?" }).click()
    const entry = tool.getByTestId('delivery-entry').first()
    // Refusals are written in batches: the panel's Refresh (or its poll) shows it once written.
    await expect
      .poll(async () => {
        if ((await entry.count()) === 0) await tool.getByRole('button', { name: 'Refresh' }).click()
        return entry.getAttribute('data-result', { timeout: 1000 }).catch(() => null)
      }, { timeout: 30_000 })
      .toBe('refused')
    await expect(entry.getByText('Refused', { exact: true }).count()).resolves.toBe(1)
    await expect(entry.getByText('550 5.7.1').count()).resolves.toBe(1)
    await expect(entry.getByText('The +reject tag asked for this: the recipient is refused.').count()).resolves.toBe(1)
    await expect(entry.getByText('Tag: +reject').count()).resolves.toBe(1)
    await expect(entry.getByRole('link').count()).resolves.toBe(0)
  })
})
