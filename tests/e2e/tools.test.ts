import { readFileSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
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

async function openHome(options: { width?: number; dark?: boolean } = {}): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({
    acceptDownloads: true,
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.dark ? 'dark' : 'light',
  })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.apiUrl })
  const page = await context.newPage()
  await page.goto(stack.apiUrl)
  return { page, context }
}

const clipboardText = (page: Page) => page.evaluate(() => navigator.clipboard.readText())

/** PNG width and height from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

describe('word counter', () => {
  it('counts what a person types, with readability figures', async () => {
    const { page, context } = await openHome()
    const card = page.getByTestId('word-counter')
    await card.getByLabel('Your text').fill('The cat sat on the mat. The cat ran!\n\nA second paragraph about the cat?')
    const stat = (key: string) => card.locator(`[data-stat="${key}"] dd`)
    await expect.poll(() => stat('words').textContent()).toBe('15')
    expect(await stat('sentences').textContent()).toBe('3')
    expect(await stat('paragraphs').textContent()).toBe('2')
    expect(await stat('readingTime').textContent()).toBe('< 1 min')
    expect(await card.getByTestId('top-words').textContent()).toContain('cat')
    // 15 words are too few for a reading-ease score: the card says so instead of a meaningless number.
    await expect.poll(() => card.getByTestId('readability-unscored').textContent()).toContain('too short to score')

    await card.getByLabel('Your text').fill('Dr. Smith met Mr. Jones at 5 p.m. yesterday. Pi is 3.14 today. '.repeat(4))
    await expect.poll(() => stat('sentences').textContent()).toBe('8')
    await expect.poll(() => card.getByText('Flesch Reading Ease').isVisible()).toBe(true)

    await card.getByLabel('Your text').fill('我们今天去北京大学。天气很好！')
    await expect.poll(() => stat('words').textContent()).toBe('7')
    expect(await stat('sentences').textContent()).toBe('2')

    await card.getByLabel('Your text').fill('')
    await expect.poll(() => stat('words').textContent()).toBe('0')
    await context.close()
  })

  it('counts a 1 MB paste (off the main thread) and stays usable', async () => {
    const { page, context } = await openHome()
    const card = page.getByTestId('word-counter')
    const text = 'word '.repeat(200_000)
    await card.getByLabel('Your text').fill(text)
    await expect.poll(() => card.locator('[data-stat="words"] dd').textContent(), { timeout: 30_000 }).toBe('200,000')
    await card.getByLabel('Your text').press('End')
    await card.getByLabel('Your text').pressSequentially(' more')
    await expect.poll(() => card.locator('[data-stat="words"] dd').textContent(), { timeout: 30_000 }).toBe('200,001')
    await context.close()
  })
})

describe('QR code generator', () => {
  it('generates, formats a bare domain, downloads qr-code.png and copies the image', async () => {
    const { page, context } = await openHome()
    const card = page.getByTestId('qr-generator')
    const generate = card.getByRole('button', { name: 'Generate' })
    expect(await generate.isDisabled()).toBe(true)

    // Download before generating explains what to do.
    await card.getByRole('button', { name: 'Download' }).click()
    await page.getByText('Please generate a QR code first.', { exact: true }).first().waitFor()

    await card.getByLabel('Text or URL').fill('example.com')
    await card.getByLabel('Text or URL').press('Enter')
    await page.getByText('URL Formatted').first().waitFor()
    expect(await card.getByLabel('Text or URL').inputValue()).toBe('https://example.com')
    const img = card.getByRole('img', { name: 'QR code for https://example.com' })
    await img.waitFor()
    expect(await img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight])).toEqual([200, 200])

    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download' }).click()])
    expect(download.suggestedFilename()).toBe('qr-code.png')
    expect(pngSize(readFileSync((await download.path())!))).toEqual({ width: 200, height: 200 })

    // Chromium with clipboard permissions takes images: the text fallback here would be a failure, not a pass.
    await card.getByRole('button', { name: 'Copy' }).click()
    await page.getByText('The QR code image is on your clipboard', { exact: false }).first().waitFor()
    const copied = await page.evaluate(async () => {
      const items = await navigator.clipboard.read()
      const item = items.find((i) => i.types.includes('image/png'))
      return { types: items.flatMap((i) => i.types), png: item ? [...new Uint8Array(await (await item.getType('image/png')).arrayBuffer())] : [] }
    })
    expect(copied.types).toContain('image/png')
    expect(pngSize(Buffer.from(copied.png))).toEqual({ width: 200, height: 200 })
    await context.close()
  })
})

describe('link shortener', () => {
  it('validates, shortens, redirects, counts clicks and keeps links across reloads', async () => {
    const { page, context } = await openHome()
    const card = page.getByTestId('link-shortener')
    const input = card.getByLabel('Long URL')

    // Errors at the field: the input is described by them (and marked invalid) until it is edited.
    const description = () => input.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' '))
    await card.getByRole('button', { name: 'Shorten' }).click()
    await page.getByText('Please enter a URL to shorten').first().waitFor()
    expect(await description()).toBe('Please enter a URL to shorten')
    expect(await input.getAttribute('aria-invalid')).toBe('true')

    await input.fill('not a url')
    expect(await input.getAttribute('aria-invalid')).toBeNull()
    await card.getByRole('button', { name: 'Shorten' }).click()
    await expect.poll(description).toBe('Please enter a valid URL (include http:// or https://)')

    await input.fill('https://example.com/first')
    await card.getByRole('button', { name: 'Shorten' }).click()
    const items = card.getByTestId('short-links').locator('li')
    await items.first().waitFor()
    expect(await input.inputValue()).toBe('')
    // A bare domain is taken as its https:// address.
    await input.fill('example.com/second')
    await input.press('Enter')
    await expect.poll(() => items.count()).toBe(2)
    // Newest first.
    expect(await items.first().textContent()).toContain('https://example.com/second')
    const short = (await items.first().getByRole('link').textContent())!.trim()
    expect(short).toMatch(new RegExp(`^${stack.apiUrl}/s/[A-Za-z0-9]{8}$`))
    expect(await items.first().getByTestId('clicks').textContent()).toBe('Clicks: 0')

    await items.first().getByRole('button', { name: `Copy ${short}` }).click()
    expect(await clipboardText(page)).toBe(short)

    const res = await fetch(short, { redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('https://example.com/second')

    await page.reload()
    const reloaded = page.getByTestId('link-shortener').getByTestId('short-links').locator('li')
    // After a reload the app loads again before the list shows (seconds on a busy machine, not the poll's default 1 s).
    await expect.poll(() => reloaded.count()).toBe(2)
    await expect.poll(() => reloaded.first().getByTestId('clicks').textContent()).toBe('Clicks: 1')

    // A code that does not exist shows the site's 404 page.
    const missing = await page.goto(`${stack.apiUrl}/s/nope00`)
    expect(missing?.status()).toBe(404)
    await page.getByText('Page Not Found').first().waitFor()
    await context.close()
  })
})

describe('IP finder', () => {
  it("shows the visitor's address and looks up others", async () => {
    const { page, context } = await openHome()
    const card = page.getByTestId('ip-finder')
    await card.getByTestId('own-ip-address').waitFor()
    expect(await card.getByTestId('own-ip-address').textContent()).toBe('127.0.0.1')
    expect(await card.getByTestId('own-ip').getByTestId('ip-private').textContent()).toContain('private network')
    await card.getByRole('button', { name: 'Copy your IP address' }).click()
    expect(await clipboardText(page)).toBe('127.0.0.1')

    const input = card.getByLabel('Look up an IP address')
    await input.fill('8.8.8.8')
    await card.getByRole('button', { name: 'Look up' }).click()
    const result = card.getByTestId('ip-lookup-result')
    await result.getByTestId('ip-location').waitFor({ timeout: 30_000 })
    expect(await result.getByTestId('ip-location').textContent()).toContain('United States')
    expect(await result.getByTestId('ip-isp').textContent()).toContain('Google')

    await input.fill('not-an-ip')
    await input.press('Enter')
    expect(await card.getByTestId('ip-lookup-error').textContent()).toContain('is not an IP address')
    expect(await card.getByText('CC BY 4.0').isVisible()).toBe(true)
    await context.close()
  })
})

describe('on a phone, in dark mode', () => {
  it('fits every tool card in 360 px without sideways scrolling', async () => {
    const { page, context } = await openHome({ width: 360, dark: true })
    await page.evaluate(() => document.documentElement.classList.add('dark'))
    for (const id of ['word-counter', 'qr-generator', 'link-shortener', 'ip-finder']) {
      const box = await page.getByTestId(id).boundingBox()
      expect(box, id).not.toBeNull()
      expect(box!.width).toBeLessThanOrEqual(360)
    }
    // Nothing inside a tool card sticks out past the screen edge.
    const overflowing = await page.evaluate(() =>
      ['word-counter', 'qr-generator', 'link-shortener', 'ip-finder'].flatMap((id) =>
        [...document.querySelectorAll(`[data-testid="${id}"] *`)]
          .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
          .map((el) => `${id}: <${el.tagName.toLowerCase()}> ${el.textContent?.slice(0, 30)}`),
      ),
    )
    expect(overflowing).toEqual([])
    await context.close()
  })
})
