import { chromium, type Browser, type BrowserContext } from 'playwright-core'

/** Debian's Chromium; override with CHROMIUM_PATH where it lives elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/** The flags this closed network needs (also given to `playwright test` runs). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic']

/** One Chromium per vitest worker (the e2e files share their worker, tests/vitest.config.ts); it ends with the worker. */
let shared: Promise<Browser> | undefined

/**
 * Headless Chromium with those flags, for one test file. Starting Chromium once per file cost more CPU than most files'
 * tests; the file's tests still each get contexts of their own (no cookie, storage or cache shared), and `close()`
 * closes the contexts this file opened, not Chromium.
 */
export async function launchBrowser(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
  const browser = await shared
  if (!browser.isConnected()) {
    shared = undefined
    return launchBrowser()
  }
  const opened = new Set<BrowserContext>()
  return new Proxy(browser, {
    get(target, property, receiver) {
      if (property === 'newContext') {
        return async (...args: Parameters<Browser['newContext']>) => {
          const context = await target.newContext(...args)
          opened.add(context)
          context.once('close', () => opened.delete(context))
          return context
        }
      }
      if (property === 'close') return async () => void (await Promise.all([...opened].map((c) => c.close())))
      const value = Reflect.get(target, property, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
