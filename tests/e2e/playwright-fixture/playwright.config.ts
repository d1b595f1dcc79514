import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, HEADLESS_SHELL_PATH } from '../../support/browser.js'

/** Run by playwright-fixture.test.ts: Debian's Chromium headless shell (no downloaded browsers), the JSON report where it says. */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 1,
  retries: 0,
  timeout: 60_000,
  outputDir: process.env.PW_OUTPUT_DIR,
  reporter: [['json', { outputFile: process.env.PW_JSON_REPORT }]],
  use: { baseURL: process.env.SIGNUP_URL, headless: true, launchOptions: { executablePath: HEADLESS_SHELL_PATH, args: CHROMIUM_ARGS } },
})
