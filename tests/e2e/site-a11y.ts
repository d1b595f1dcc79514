import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { startStack, type Stack } from '../support/stack'
import type { SITE_ROUTES } from './site-routes'

/** axe-core's serious and critical violations on the page as it is now, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Legacy mode runs axe in the page itself: the default opens a blank page per analysis to combine frames' results,
  // which cost as much again as the rules on these pages (which embed no cross-origin frame).
  const result = await new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] }).analyze()
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`)
}

/**
 * Each route has no serious or critical axe-core violation, in the light theme and then in the dark one: the page
 * follows the device (theme `system`), which turns dark while it is open, as a phone's does at dusk. The site's routes
 * are split over two files (site-a11y-*.test.ts) so that the e2e project's two workers share them.
 */
export function describeSiteAccessibility(name: string, routes: typeof SITE_ROUTES): void {
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

  describe(`accessibility (axe-core) of the ${name}, light and dark`, () => {
    // One tab opens each route as a new document, the device light again first: a fresh page per route cost Chromium
    // nearly three times the CPU of a navigation.
    let page: Page
    beforeAll(async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' })
      await context.addInitScript(() => localStorage.setItem('tempbox-theme', 'system'))
      page = await context.newPage()
    })
    afterAll(async () => {
      await page?.context().close()
    })

    for (const route of routes) {
      it(`${route.path} has no serious or critical violations in either theme`, async () => {
        await page.emulateMedia({ colorScheme: 'light' })
        await page.goto(stack.apiUrl + route.path)
        await page.waitForFunction((title) => document.title === title, route.title)
        await page.waitForLoadState('networkidle')
        expect(await page.evaluate(() => document.documentElement.className)).toContain('light')
        expect({ theme: 'light', problems: await seriousViolations(page) }).toEqual({ theme: 'light', problems: [] })

        await page.emulateMedia({ colorScheme: 'dark' })
        // Colour transitions must have ended, or axe would measure contrast halfway between the themes.
        await page.waitForFunction(() => document.documentElement.classList.contains('dark') && document.getAnimations().length === 0)
        expect({ theme: 'dark', problems: await seriousViolations(page) }).toEqual({ theme: 'dark', problems: [] })
      })
    }
  })
}
