/**
 * Web budget (issue 4): the home page's first-view JavaScript (gzipped) and its Largest Contentful Paint,
 * on the production build served by the real API server, in headless Chromium with a cold cache.
 * Run: `pnpm --filter @tempbox/bench exec tsx web-budget.ts` (builds apps/web first).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { startApiStack } from './lib/api-stack.js'
import { BenchRun } from './lib/bench-run.js'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DIST = join(ROOT, 'apps/web/dist')
/** Issue 4's limits. */
const JS_BUDGET_KB = 150
const LCP_BUDGET_MS = 1000
const RUNS = 7
const bench = new BenchRun('web-budget')

const gzipKb = (buf: Buffer) => gzipSync(buf, { level: 9 }).length / 1024

function build() {
  const run = spawnSync('pnpm', ['--filter', '@tempbox/web', 'build'], { cwd: ROOT, stdio: 'inherit' })
  if (run.status !== 0) throw new Error('web build failed')
}

/** The entry script and every chunk index.html preloads: what the browser must run before the first render. */
function staticFirstView(): { files: { name: string; kb: number }[]; totalKb: number } {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8')
  const paths = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((m) => (m[1] ?? m[2])!)
  const files = paths.map((p) => ({ name: p.replace('/assets/', ''), kb: gzipKb(readFileSync(join(DIST, p))) }))
  return { files, totalKb: files.reduce((s, f) => s + f.kb, 0) }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

async function main() {
  build()
  const firstView = staticFirstView()
  const stack = await startApiStack(ROOT, { withIngest: false, domain: 'bench.test', env: { WEB_DIST_DIR: DIST } })
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  })
  const lcps: number[] = []
  const beforeLoadKb: number[] = []
  const allJsKb: number[] = []
  const requests: number[] = []
  const wireKb: number[] = []
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      const page = await context.newPage()
      let isLoaded = false
      const js: { kb: number; beforeLoad: boolean }[] = []
      let responses = 0
      let wireBytes = 0
      // Read before the context closes: each response's body and size are fetched from the browser.
      const reading: Promise<void>[] = []
      page.on('response', (res) => {
        responses++
        if (!/\.(js|css)$/.test(res.url())) return
        const beforeLoad = !isLoaded
        reading.push((async () => {
          // As sent: the brotli or gzip copy the server chose (Content-Encoding), not the file.
          wireBytes += (await res.request().sizes()).responseBodySize
          if (res.url().endsWith('.js')) js.push({ kb: gzipKb(await res.body()), beforeLoad })
        })().catch((err: unknown) => console.warn(`[web-budget] a response that came after network idle was not read: ${res.url()} (${String(err)})`)))
      })
      await page.goto(`${stack.apiUrl}/`, { waitUntil: 'load' })
      isLoaded = true
      await page.waitForLoadState('networkidle')
      const lcp = await page.evaluate(
        () =>
          new Promise<number>((ok) => {
            new PerformanceObserver((list) => {
              const entries = list.getEntries()
              ok(entries[entries.length - 1]!.startTime)
            }).observe({ type: 'largest-contentful-paint', buffered: true })
          }),
      )
      lcps.push(lcp)
      // A response read meanwhile may add another: wait until none is left.
      for (let read = 0; read < reading.length; ) {
        const upTo = reading.length
        await Promise.all(reading.slice(read, upTo))
        read = upTo
      }
      beforeLoadKb.push(js.filter((j) => j.beforeLoad).reduce((s, j) => s + j.kb, 0))
      allJsKb.push(js.reduce((s, j) => s + j.kb, 0))
      requests.push(responses)
      wireKb.push(wireBytes / 1024)
      await context.close()
    }
  } finally {
    await browser.close()
    await stack.stop()
  }
  // The first run also warms the server's file cache; report the median of all runs.
  const lcp = median(lcps)
  const lines = [
    `${bench.measured()} Production build (\`vite build\`) served by the API server (\`WEB_DIST_DIR\`), headless Chromium, 1280×800, a fresh browser context (cold cache) per run, ${RUNS} runs, no network throttling. Sizes are gzip level 9 of each file.`,
    '',
    '| Metric | Budget | Measured |',
    '|---|---|---|',
    `| Home first-view JS: entry + modulepreloaded chunks (gzip) | ≤ ${JS_BUDGET_KB} KB | **${firstView.totalKb.toFixed(1)} KB** ${firstView.totalKb <= JS_BUDGET_KB ? '✅' : '❌'} |`,
    `| JS fetched before the load event (gzip, median) | — | ${median(beforeLoadKb).toFixed(1)} KB |`,
    `| All JS by network idle, incl. the lazily loaded tools (gzip, median) | — | ${median(allJsKb).toFixed(1)} KB |`,
    `| Requests by network idle (median) | — | ${median(requests)} |`,
    `| Scripts and styles as sent by the server, by network idle (median) | — | ${median(wireKb).toFixed(1)} KB |`,
    `| Largest Contentful Paint (median of ${RUNS}) | < ${LCP_BUDGET_MS} ms | **${lcp.toFixed(0)} ms** ${lcp < LCP_BUDGET_MS ? '✅' : '❌'} (min ${Math.min(...lcps).toFixed(0)}, max ${Math.max(...lcps).toFixed(0)}) |`,
    '',
    'First-view files:',
    '',
    ...firstView.files.map((f) => `- \`${f.name}\`: ${f.kb.toFixed(1)} KB`),
    '',
    'Every page but home, the five tools, the account and API-keys dialogs and all languages but English are separate chunks loaded on demand. The libraries every page needs before its first render are one `vendor` chunk, the component kit one lazy `ui` chunk (what of it the first view runs: `initial-ui`); scripts and styles are sent as the brotli or gzip copy the build wrote.',
  ]
  if (!process.env.BENCH_NO_WRITE) writeBenchmarkSection(ROOT, '## Budget', lines.join('\n'))
  console.log(lines.join('\n'))
}

void main().catch((err) => {
  console.error(err)
  process.exit(1)
})
