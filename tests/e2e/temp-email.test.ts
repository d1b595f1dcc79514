import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import AxeBuilder from '@axe-core/playwright'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { startStack, waitFor, type Stack } from '../support/stack'

let stack: Stack
let browser: Browser
let imageServer: Server
let imagePort: number
let imageHits = 0
/** Paths the image server was asked for, to tell which remote reference loaded. */
const imagePaths: string[] = []

beforeAll(async () => {
  // Every test here opens its own address from the one client 127.0.0.1; the 5-active limit
  // (tested in addresses.test.ts) would refuse the sixth.
  stack = await startStack({ withWeb: true, env: { MAX_ACTIVE_ADDRESSES_PER_IP: '50' } })
  browser = await launchBrowser()
  imageServer = createServer((req, res) => {
    imageHits++
    imagePaths.push(req.url ?? '')
    res.writeHead(200, { 'Content-Type': 'image/gif' })
    res.end(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'))
  })
  await new Promise<void>((ok) => imageServer.listen(0, '127.0.0.1', ok))
  imagePort = (imageServer.address() as AddressInfo).port
})

afterAll(async () => {
  await browser?.close()
  await new Promise((ok) => imageServer?.close(ok))
  await stack?.stop()
})

function send(to: string, mail: SendMailOptions) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
  return transport.sendMail({ from: 'Sender Example <sender@example.com>', to, ...mail })
}

/** Opens the home page and generates an address in it. */
async function openWithAddress(): Promise<{ page: Page; address: string }> {
  const context = await browser.newContext({ acceptDownloads: true })
  const page = await context.newPage()
  await page.goto(stack.apiUrl)
  await page.locator('#temp-email').getByRole('button', { name: 'Generate Email' }).click()
  const field = page.locator('#temp-email').getByLabel('Your temporary address')
  await field.waitFor()
  const address = await field.inputValue()
  expect(address).toMatch(new RegExp(`^[^@]+@${stack.mailDomain.replace('.', '\\.')}$`))
  await page.locator('#temp-email').getByText(/No messages yet/).waitFor()
  return { page, address }
}

describe('temporary email in the browser', () => {
  it('shows a mail sent to an open inbox at once (pushed, not polled), expands and collapses it', async () => {
    const { page, address } = await openWithAddress()
    const inboxPath = `/api/email/${encodeURIComponent(address)}`
    // From here on the inbox GET (the 10 s poll) fails, so the mail can only arrive over the event stream.
    let polls = 0
    await page.route((url) => url.pathname === inboxPath, (route) => {
      polls++
      return route.abort()
    })
    await send(address, { subject: 'Hello from the e2e test', text: 'This is the body of the e2e message. '.repeat(5) })

    const row = page.locator('#temp-email').getByRole('button', { name: /Hello from the e2e test/ })
    await row.waitFor()
    expect(polls).toBe(0)
    await expect(row.textContent()).resolves.toContain('Sender Example')
    await expect(row.textContent()).resolves.toMatch(/\d+s ago/)

    await row.click()
    expect(await row.getAttribute('aria-expanded')).toBe('true')
    const body = page.locator('pre', { hasText: 'This is the body of the e2e message.' })
    await body.waitFor()
    await row.click()
    await body.waitFor({ state: 'detached' })
    expect(await row.getAttribute('aria-expanded')).toBe('false')

    await row.click()
    await body.waitFor()
    const axe = await new AxeBuilder({ page }).include('#temp-email').options({ resultTypes: ['violations'] }).analyze()
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    await page.locator('#temp-email').getByTestId('inbox-message').getByRole('button', { name: 'Close', exact: true }).click()
    await body.waitFor({ state: 'detached' })
    await page.context().close()
  })

  it('runs no script from a hostile mail and loads no remote image until Show images', async () => {
    const { page, address } = await openWithAddress()
    const pixel = `http://127.0.0.1:${imagePort}/pixel.gif`
    const html = [
      '<html><head><meta http-equiv="refresh" content="0;url=javascript:top.__pwned=\'refresh\'"><base href="http://127.0.0.1:1/">',
      `<style>.banner{height:20px;background:url(http://127.0.0.1:${imagePort}/banner.gif)}</style></head>`,
      '<body onload="top.__pwned=\'onload\'">',
      '<p>Hostile content here</p>',
      '<div class="banner">Banner</div>',
      '<script>window.__pwned = "self"; try { top.__pwned = "top" } catch (e) {} try { parent.__pwned = "parent" } catch (e) {} try { opener && (opener.__pwned = "opener") } catch (e) {}</script>',
      '<img src="data:x" onerror="window.__pwned=\'onerror\'; top.__pwned=\'onerror\'">',
      `<img src="${pixel}" alt="tracker">`,
      '<a href="javascript:top.__pwned=\'link\'">click me</a>',
      '<svg><script>top.__pwned="svg"</script></svg>',
      '<form action="http://127.0.0.1:1/steal"><input name="x"><button>Go</button></form>',
      '</body></html>',
    ].join('')
    await send(address, { subject: 'Totally harmless', text: 'Harmless text part', html })

    const row = page.locator('#temp-email').getByRole('button', { name: /Totally harmless/ })
    await row.click()
    const iframe = page.locator('iframe[title="Message content"]')
    await iframe.waitFor()
    // Never allow-scripts: nothing in a mail runs. Same origin only lets the page measure the frame to fit it.
    expect(await iframe.getAttribute('sandbox')).toBe('allow-same-origin allow-popups allow-popups-to-escape-sandbox')
    // The mail is a document of its own URL, under the policy served with it (not the app's, as a srcdoc would be).
    const src = (await iframe.getAttribute('src'))!
    expect(src).toMatch(new RegExp(`^/api/email/${encodeURIComponent(address)}/messages/\\d+/frame$`))
    const served = await fetch(stack.apiUrl + src)
    expect(served.headers.get('content-security-policy')).toMatch(/^default-src 'none'; img-src data: http:\/\/127\.0\.0\.1:\d+\/api\/email\/[^ ]+\/attachments\/; style-src 'unsafe-inline';/)
    expect(served.headers.get('content-security-policy')).toContain('sandbox allow-same-origin allow-popups allow-popups-to-escape-sandbox')

    const frame = (await (await iframe.elementHandle())!.contentFrame())!
    await frame.waitForLoadState('load')
    await frame.getByText('Hostile content here').waitFor()
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined()
    expect(await frame.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined()
    expect(await frame.locator('form, input, script').count()).toBe(0)
    expect(imageHits).toBe(0)

    // Toggling to text and back re-renders the frame: still nothing loads.
    await page.locator('#temp-email').getByRole('button', { name: 'Text', exact: true }).click()
    await page.locator('pre', { hasText: 'Harmless text part' }).waitFor()
    await page.locator('#temp-email').getByRole('button', { name: 'HTML', exact: true }).click()
    await iframe.waitFor()
    expect(imageHits).toBe(0)

    await page.locator('#temp-email').getByRole('button', { name: 'Show images' }).click()
    await waitFor(() => imageHits > 0, 20_000, 'the remote image to load after Show images')
    await waitFor(() => imagePaths.includes('/banner.gif'), 20_000, 'the remote CSS background to load after Show images')
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined()
    await page.context().close()
  })

  it('downloads an attachment with its name and bytes intact, and the raw .eml', async () => {
    const { page, address } = await openWithAddress()
    const bytes = randomBytes(20_000)
    await send(address, {
      subject: 'Your report',
      text: 'Report attached.',
      attachments: [{ filename: 'report-2026.bin', content: bytes, contentType: 'application/octet-stream' }],
    })
    await page.locator('#temp-email').getByRole('button', { name: /Your report/ }).click()
    const link = page.locator('#temp-email').getByRole('link', { name: 'Download report-2026.bin' })
    await link.waitFor()

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
    expect(download.suggestedFilename()).toBe('report-2026.bin')
    expect(Buffer.compare(readFileSync((await download.path())!), bytes)).toBe(0)

    const [eml] = await Promise.all([page.waitForEvent('download'), page.locator('#temp-email').getByRole('link', { name: 'Download .eml' }).click()])
    expect(eml.suggestedFilename()).toMatch(/\.eml$/)
    const raw = readFileSync((await eml.path())!, 'utf8')
    expect(raw).toMatch(/^Subject: Your report\r?$/m)
    expect(raw).toContain('report-2026.bin')
    await page.context().close()
  })

  it('creates a chosen address, refuses it when taken, and offers a code from a sign-up mail with one-click copy', async () => {
    const context = await browser.newContext()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.apiUrl })
    const page = await context.newPage()
    await page.goto(stack.apiUrl)
    const name = `e2e-${Date.now().toString(36)}`
    await page.locator('#temp-email').getByRole('button', { name: 'Choose your own name' }).click()
    await page.locator('#temp-email').getByLabel('Name').fill(name)
    await page.locator('#temp-email').getByRole('button', { name: 'Generate Email' }).click()
    const field = page.locator('#temp-email').getByLabel('Your temporary address')
    await field.waitFor()
    const address = await field.inputValue()
    expect(address).toBe(`${name}@${stack.mailDomain}`)

    // The same name again: the server's refusal is said at the form, and the current address stays.
    await page.locator('#temp-email').getByRole('button', { name: 'New Address' }).click()
    const refusal = page.locator('#temp-email').getByRole('alert').filter({ hasText: name })
    await refusal.waitFor()
    expect(await refusal.textContent()).not.toContain('Failed to generate temporary email')
    expect(await page.locator('[data-slot="toast"][data-variant="destructive"]').count()).toBe(0)
    expect(await field.inputValue()).toBe(address)

    await send(address, {
      subject: 'Confirm your Acme account',
      text: 'Welcome to Acme!\n\nYour verification code is 482913.\n\nThis code expires in 10 minutes.',
    })
    await page.locator('#temp-email').getByRole('button', { name: 'Check Emails' }).click()
    await page.locator('[data-slot="toast"]', { hasText: 'Inbox Refreshed' }).filter({ hasText: 'Found 1 message(s).' }).waitFor()
    await page.locator('#temp-email').getByRole('button', { name: 'Code 482913 (Copy)' }).click()
    await page.locator('[data-slot="toast"]', { hasText: 'Copied' }).waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('482913')
    await context.close()
  })

  it('warns that a chosen name can be guessed, refuses a short or reserved one, and offers random characters', async () => {
    const page = await (await browser.newContext()).newPage()
    await page.goto(stack.apiUrl)
    const tool = page.locator('#temp-email')
    await tool.getByRole('button', { name: 'Choose your own name' }).click()
    await tool.getByText('Anyone who guesses a chosen name can read its mail.').waitFor()
    const name = tool.getByLabel('Name')
    await name.fill('bob')
    await tool.getByRole('button', { name: 'Generate Email' }).click()
    await tool.getByRole('alert').filter({ hasText: 'Use at least 6 characters' }).waitFor()
    expect(await tool.getByLabel('Your temporary address').count()).toBe(0)

    // The server refuses a reserved name with its own sentence, shown as it is at the field.
    await name.fill('postmaster')
    await tool.getByRole('button', { name: 'Generate Email' }).click()
    await tool.getByRole('alert').filter({ hasText: 'The name "postmaster" is reserved.' }).waitFor()
    expect(await name.getAttribute('aria-invalid')).toBe('true')

    await name.fill('bobby-tables')
    await tool.getByRole('button', { name: 'Add random characters' }).click()
    const chosen = await name.inputValue()
    expect(chosen).toMatch(/^bobby-tables-[a-z2-9]{5}$/)
    await tool.getByRole('button', { name: 'Generate Email' }).click()
    const field = tool.getByLabel('Your temporary address')
    await field.waitFor()
    expect(await field.inputValue()).toBe(`${chosen}@${stack.mailDomain}`)
    await page.context().close()
  })

  it('shows inline cid: images from the message itself while remote ones stay blocked', async () => {
    const { page, address } = await openWithAddress()
    // 2x1 red PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwHwyBNAMAPQ0H+QKV6+gAAAAASUVORK5CYII=', 'base64')
    const remote = `http://127.0.0.1:${imagePort}/beside-the-logo.gif`
    await send(address, {
      subject: 'Inline logo',
      html: `<p>Logo below</p><img id="logo" src="cid:logo@acme" alt="Acme logo"><img id="tracker" src="${remote}" alt="tracker">`,
      attachments: [{ filename: 'logo.png', content: png, contentType: 'image/png', cid: 'logo@acme' }],
    })
    await page.locator('#temp-email').getByRole('button', { name: /Inline logo/ }).click()
    const iframe = page.locator('iframe[title="Message content"]')
    await iframe.waitFor()
    const frame = (await (await iframe.elementHandle())!.contentFrame())!
    await frame.waitForLoadState('load')
    await waitFor(async () => (await frame.locator('#logo').evaluate((img) => (img as HTMLImageElement).naturalWidth)) === 2, 20_000, 'the cid image to render')
    // The cid image has loaded, so the frame's images have been asked for: the remote one was not.
    expect(await frame.locator('#tracker').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(0)
    expect(imagePaths).not.toContain('/beside-the-logo.gif')
    await page.locator('#temp-email').getByRole('button', { name: 'Show images' }).click()
    await waitFor(() => imagePaths.includes('/beside-the-logo.gif'), 20_000, 'the remote image to load after Show images')
    await page.context().close()
  })

  it('pages a large inbox: the newest 50 with the count, older ones on demand, each opened whole; polls revalidate to 304', { timeout: 180_000 }, async () => {
    const { page, address } = await openWithAddress()
    const tool = page.locator('#temp-email')
    const inboxPath = `/api/email/${encodeURIComponent(address)}`
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 2 })
    const n = (i: number) => String(i).padStart(2, '0')
    try {
      for (let i = 1; i <= 55; i++) {
        await transport.sendMail({ from: 'Pager <pager@example.com>', to: address, subject: `Page mail ${n(i)}`, text: `Body of page mail ${n(i)}.` })
      }
    } finally {
      transport.close()
    }
    // A new visit starts from the first page (the open tab had them all pushed over the event stream).
    await tool.getByRole('button', { name: /Page mail 55/ }).waitFor({ timeout: 30_000 })
    const firstPage = page.waitForResponse((r) => new URL(r.url()).pathname === inboxPath)
    await page.reload()
    const listing = (await (await firstPage).json()) as { messages: Record<string, unknown>[]; total: number }
    expect(listing.total).toBe(55)
    expect(listing.messages).toHaveLength(50)
    expect(listing.messages.every((m) => !('text' in m) && !('html' in m) && !('content' in m))).toBe(true)

    await tool.getByText('Showing 50 of 55').waitFor()
    expect(await tool.getByTestId('inbox-message').count()).toBe(50)
    expect(await tool.getByRole('button', { name: /Page mail 05/ }).count()).toBe(0)

    await tool.getByRole('button', { name: 'Load older messages' }).click()
    await tool.getByText('Showing 55 of 55').waitFor()
    expect(await tool.getByRole('button', { name: 'Load older messages' }).count()).toBe(0)
    const subjects = (await tool.getByTestId('inbox-message').allTextContents()).map((t) => /Page mail \d\d/.exec(t)?.[0])
    expect(subjects).toEqual(Array.from({ length: 55 }, (_, i) => `Page mail ${n(55 - i)}`))

    // With nothing new, the next 10-second poll asks with the page's ETag and the server answers 304, no body.
    const poll = await page.waitForResponse((r) => new URL(r.url()).pathname === inboxPath && new URL(r.url()).search === '', { timeout: 20_000 })
    const sentTag = await poll.request().headerValue('if-none-match')
    expect(sentTag).toMatch(/^W\/"/)
    // The page keeps its last 200 itself (inbox content is no-store); what crossed the wire was a 304: same tag, no body.
    expect(await poll.headerValue('etag')).toBe(sentTag)
    expect((await poll.request().sizes()).responseBodySize).toBe(0)
    expect(await poll.headerValue('content-type')).toBeNull()
    expect(await tool.getByTestId('inbox-message').count()).toBe(55)

    // The oldest, loaded with the older page, opens whole from its own URL; deleting it updates the count.
    const whole = page.waitForResponse((r) => /\/messages\/\d+$/.test(new URL(r.url()).pathname))
    await tool.getByRole('button', { name: /Page mail 01/ }).click()
    expect((await whole).status()).toBe(200)
    await page.locator('pre', { hasText: 'Body of page mail 01.' }).waitFor()
    await tool.getByRole('button', { name: 'Delete', exact: true }).click()
    await tool.getByText('Showing 54 of 54').waitFor()
    expect(await tool.getByRole('button', { name: /Page mail 01/ }).count()).toBe(0)
    await page.context().close()
  })
})
