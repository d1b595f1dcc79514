import AxeBuilder from '@axe-core/playwright'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { startStack, type Stack } from '../support/stack'
import { SITE_ROUTES } from './site-routes'

/**
 * Every site route in one theme has no serious or critical axe-core violation. One file per theme
 * (site-a11y-light/-dark.test.ts) so that the e2e project's two workers share the work.
 */
export function describeSiteAccessibility(theme: 'light' | 'dark'): void {
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

  describe(`accessibility (axe-core), ${theme} theme`, () => {
    for (const route of SITE_ROUTES) {
      it(`${route.path} in ${theme} has no serious or critical violations`, async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
        await context.addInitScript((t) => localStorage.setItem('tempbox-theme', t), theme)
        const page = await context.newPage()
        await page.goto(stack.apiUrl + route.path)
        await page.waitForFunction((title) => document.title === title, route.title)
        await page.waitForLoadState('networkidle')
        const result = await new AxeBuilder({ page }).analyze()
        const problems = result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`)
        expect(problems).toEqual([])
        await context.close()
      })
    }
  })
}
