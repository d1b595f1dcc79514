import nodemailer from 'nodemailer'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { dmarcReject, plainMail, signingDomain, signMail } from '../support/dkim'
import { writeDnsFixture } from '../support/dns-fixture'
import { startStack, type Stack } from '../support/stack'

const github = signingDomain('github.com')
const dns = writeDnsFixture({ ...github.zone, ...dmarcReject('github.com') })
let stack: Stack
let browser: Browser

beforeAll(async () => {
  stack = await startStack({ withWeb: true, env: { MAIL_AUTH_DNS_FIXTURE: dns.path } })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await stack?.stop()
  dns.remove()
})

describe('who really sent it, in the message view', { timeout: 180_000 }, () => {
  it('shows "Verified: sent by github.com" for a signed mail and "Not verified" for an unsigned one, with details', async () => {
    const page = await (await browser.newContext()).newPage()
    await page.goto(stack.apiUrl)
    await page.locator('#temp-email').getByRole('button', { name: 'Generate Email' }).click()
    const field = page.locator('#temp-email').getByLabel('Your temporary address')
    await field.waitFor()
    const address = await field.inputValue()

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true, name: 'mail.github.com' })
    await transport.sendMail({ envelope: { from: 'bounce@github.com', to: address }, raw: await signMail(plainMail('GitHub <noreply@github.com>', address, 'Signed by GitHub'), github) })
    await transport.sendMail({ envelope: { from: 'someone@no-policy.example', to: address }, raw: plainMail('Someone <someone@no-policy.example>', address, 'Nobody vouches') })

    const inbox = page.locator('#temp-email')
    await inbox.getByRole('button', { name: /Signed by GitHub/ }).click()
    const badge = inbox.getByTestId('sender-check').getByRole('status')
    await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toBe('Verified: sent by github.com')
    await inbox.getByTestId('sender-check').getByRole('button', { name: 'Details' }).click()
    await inbox.getByText('The domain github.com proved that this message comes from it.').waitFor()
    await expect(inbox.getByText('passed · github.com (matches the sender)').count()).resolves.toBe(1)

    await inbox.getByRole('button', { name: /Nobody vouches/ }).click()
    await expect.poll(() => inbox.getByTestId('sender-check').getByRole('status').textContent(), { timeout: 30_000 }).toBe('Not verified')
  })
})
