/**
 * The IP finder's local databases (DB-IP city .mmdb + the ASN CSV turned into a sorted range table):
 * load time without and with the ASN binary cache, memory, and the cost of one lookup.
 * `pnpm bench ip`; BENCH_NO_WRITE=1 leaves BENCHMARKS.md alone.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createGeoipService, defaultGeoipPaths } from '../apps/api/src/services/geoip/geoip-service.ts'
import { BenchRun } from './lib/bench-run.js'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const bench = new BenchRun('ip-lookup')
const cacheDir = mkdtempSync(join(tmpdir(), 'tempbox-asn-cache-'))
const paths = { ...defaultGeoipPaths(), asnCache: join(cacheDir, 'asn.bin') }

async function timedLoad() {
  const rssBefore = process.memoryUsage().rss
  const geoip = createGeoipService(paths)
  const t = performance.now()
  await geoip.load()
  return { geoip, ms: performance.now() - t, mb: (process.memoryUsage().rss - rssBefore) / 1e6 }
}

const cold = await timedLoad() // parses the CSV and writes the cache
const warm = await timedLoad() // reads the cache
rmSync(cacheDir, { recursive: true, force: true })

const ips = ['8.8.8.8', '1.1.1.1', '81.2.69.142', '2001:4860:4860::8888', '2606:4700:4700::1111', '203.0.113.9']
const n = 100_000
for (let i = 0; i < 1000; i++) await warm.geoip.lookup(ips[i % ips.length]!)
const t = performance.now()
for (let i = 0; i < n; i++) await warm.geoip.lookup(ips[i % ips.length]!)
const perLookupUs = ((performance.now() - t) / n) * 1000

const rows = [
  `| First load: open both .mmdb files + parse the ASN CSV (≈515k ranges) and write the cache | ${cold.ms.toFixed(0)} ms | +${cold.mb.toFixed(0)} MB RSS |`,
  `| Later loads: .mmdb + ASN table from its binary cache (13 MB) | ${warm.ms.toFixed(0)} ms | — |`,
  `| One lookup (city + ASN, v4/v6 mix, ${n.toLocaleString('en')} lookups) | ${perLookupUs.toFixed(1)} µs | — |`,
]
console.log(rows.join('\n'))

if (!process.env.BENCH_NO_WRITE) {
  writeBenchmarkSection(
    REPO_ROOT,
    '## IP finder: local geolocation data',
    `${bench.measured()}

| Step | Time | Memory |
|---|---|---|
${rows.join('\n')}

The data loads once per process: lazily on the first lookup, or in the background at start in production
(\`GEOIP_PRELOAD\`, default on with \`APP_ENV=production\`), so the API starts and answers at once and tests that never
locate an IP don't pay for it. The ASN cache lives in \`apps/api/node_modules/.cache/tempbox-geoip/\`, keyed by the data package's version.`,
  )
}
