/**
 * The IP finder's local databases (DB-IP city .mmdb + the ASN CSV turned into a file of sorted ranges in pages):
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
// Addresses all over the space: most tree nodes and records not yet in the page cache (GEOIP_CACHE_MB).
const spread = 20_000
let x = 20261128
const randomIp = () => {
  x ^= x << 13
  x ^= x >>> 17
  x ^= x << 5
  return [24, 16, 8, 0].map((s) => (x >>> s) & 0xff).join('.')
}
const t2 = performance.now()
for (let i = 0; i < spread; i++) await warm.geoip.lookup(randomIp())
const spreadUs = ((performance.now() - t2) / spread) * 1000

const rows = [
  `| First load: open both city .mmdb files (read on demand, never whole) + parse the ASN CSV (≈515k ranges) and write its table file | ${cold.ms.toFixed(0)} ms | +${cold.mb.toFixed(0)} MB RSS |`,
  `| Later loads: city files and the ASN table file (13 MB, read on demand, never whole) opened | ${warm.ms.toFixed(0)} ms | +${warm.mb.toFixed(0)} MB RSS |`,
  `| One lookup (city + ASN, v4/v6 mix of 6 addresses, ${n.toLocaleString('en')} lookups: pages cached) | ${perLookupUs.toFixed(1)} µs | — |`,
  `| One lookup (${spread.toLocaleString('en')} seeded random IPv4 addresses: most pages read from the file) | ${spreadUs.toFixed(1)} µs | — |`,
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

The city files (~130 MB) are never read whole: a lookup walks the search tree and decodes its record with positioned
reads through a page cache of \`GEOIP_CACHE_MB\` (4 MB by default, a third per file); the kernel's page cache keeps the rest
warm. The ASN table is the same: a small index of each 4 KiB page's first address in memory, the page read on demand. The
files are opened and the ASN table loaded once per process: lazily on the first lookup, or in the background at start
in production (\`GEOIP_PRELOAD\`, default on with \`APP_ENV=production\`), so tests that never locate an IP don't pay. The ASN table file lives in \`apps/api/node_modules/.cache/tempbox-geoip/\`, keyed by the data package's version.`,
  )
}
