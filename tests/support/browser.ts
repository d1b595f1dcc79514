import { chromium, type Browser, type BrowserContext } from 'playwright-core'

/**
 * Debian's headless shell (package chromium-headless-shell): the build Playwright itself runs headless tests on. The
 * e2e suite spent 40 % less CPU in it than in the full browser's headless mode. Override with CHROMIUM_HEADLESS_SHELL_PATH.
 */
export const HEADLESS_SHELL_PATH = process.env.CHROMIUM_HEADLESS_SHELL_PATH || '/usr/bin/chromium-headless-shell'
/** Debian's full Chromium, for what the shell lacks (it reports granted notifications as denied); or CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/**
 * The flags this closed network needs (also given to `playwright test` runs). Without a GPU, the compositor runs on the
 * CPU in the browser process rather than in a GPU process of its own: ~5 % less CPU per page load, paired A/B.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--in-process-gpu', '--disable-gpu-compositing', '--disable-background-networking', '--disable-component-update', '--no-first-run',
  '--disable-sync', '--disable-quic',
]

/** One browser of each kind per vitest worker (the e2e files share their worker, tests/vitest.config.ts), ending with it. */
const shared = new Map<string, Promise<Browser>>()

/**
 * The headless shell with those flags (the full browser when `fullChromium`), for one test file. Starting Chromium once
 * per file cost more CPU than most files' tests; the file's tests still each get contexts of their own (no cookie,
 * storage or cache shared), and `close()` closes the contexts this file opened, not Chromium.
 */
export async function launchBrowser(options: { fullChromium?: boolean } = {}): Promise<Browser> {
  const executablePath = options.fullChromium ? CHROMIUM_PATH : HEADLESS_SHELL_PATH
  if (!shared.has(executablePath)) shared.set(executablePath, chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS }))
  const browser = await shared.get(executablePath)!
  if (!browser.isConnected()) {
    shared.delete(executablePath)
    return launchBrowser(options)
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
