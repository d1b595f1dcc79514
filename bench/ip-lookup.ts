/**
 * The IP finder's local databases (DB-IP city .mmdb + the ASN CSV turned into a sorted range table):
 * one-off load time, memory, and the cost of one lookup. `pnpm bench ip`.
 */
import { createGeoipService } from '../apps/api/src/services/geoip-service.ts'

const rssBefore = process.memoryUsage().rss
const geoip = createGeoipService()
let t = performance.now()
await geoip.load()
const loadMs = performance.now() - t
const rssMb = (process.memoryUsage().rss - rssBefore) / 1e6

const ips = ['8.8.8.8', '1.1.1.1', '81.2.69.142', '2001:4860:4860::8888', '2606:4700:4700::1111', '203.0.113.9']
const n = 100_000
t = performance.now()
for (let i = 0; i < n; i++) await geoip.lookup(ips[i % ips.length]!)
const perLookupUs = ((performance.now() - t) / n) * 1000
console.log(`load ${loadMs.toFixed(0)} ms · +${rssMb.toFixed(0)} MB RSS · ${perLookupUs.toFixed(1)} µs per lookup (${n} lookups, v4+v6 mix)`)
