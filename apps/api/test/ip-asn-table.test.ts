import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAsnCsv, type AsnColumns } from '../src/services/geoip/asn-csv.js'
import { defaultGeoipPaths } from '../src/services/geoip/geoip-service.js'
import { loadAsnTable, type AsnTable } from '../src/services/geoip/geoip-asn-table.js'
import { parseIp } from '@tempbox/ip'

const dir = mkdtempSync(join(tmpdir(), 'tempbox-asn-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const v4 = join(dir, 'v4.csv')
const v6 = join(dir, 'v6.csv')
// Same shape as @ip-location-db/asn's *-num.csv files, including a quoted name with a comma and CRLF line ends.
writeFileSync(v4, '16777216,16777471,13335,"Cloudflare, Inc."\r\n134744064,134744319,15169,Google LLC\r\n134744320,134744575,15169,\n')
const g = (ip: string) => parseIp(ip)!.value
writeFileSync(v6, `${g('2001:4860::')},${g('2001:4860:ffff:ffff:ffff:ffff:ffff:ffff')},15169,Google LLC\n${g('2606:4700::')},${g('2606:4700:ffff:ffff:ffff:ffff:ffff:ffff')},13335,"Cloudflare ""CF"", Inc."\n`)

async function probe(table: AsnTable) {
  const v6 = (ip: string) => {
    const value = g(ip)
    return table.lookupV6(value >> 64n, value & ((1n << 64n) - 1n))
  }
  return {
    cloudflare: await table.lookupV4(Number(g('1.0.0.1'))),
    google: await table.lookupV4(Number(g('8.8.8.8'))),
    noName: await table.lookupV4(Number(g('8.8.9.1'))),
    gap: await table.lookupV4(Number(g('9.9.9.9'))),
    before: await table.lookupV4(Number(g('0.0.0.1'))),
    googleV6: await v6('2001:4860:4860::8888'),
    cloudflareV6: await v6('2606:4700:4700::1111'),
    gapV6: await v6('2a00::1'),
  }
}

describe('ASN range table', () => {
  it('finds the range holding an address by binary search (v4 and v6), and nothing in the gaps', async () => {
    const found = await probe(await loadAsnTable(v4, v6))
    expect(found).toEqual({
      cloudflare: { asn: 13335, organisation: 'Cloudflare, Inc.' },
      google: { asn: 15169, organisation: 'Google LLC' },
      noName: { asn: 15169, organisation: null },
      gap: null,
      before: null,
      googleV6: { asn: 15169, organisation: 'Google LLC' },
      cloudflareV6: { asn: 13335, organisation: 'Cloudflare "CF", Inc.' },
      gapV6: null,
    })
  })

  it('answers the same from its binary cache as from the CSV', async () => {
    const cache = join(dir, 'cache', 'asn.bin')
    const fromCsv = await probe(await loadAsnTable(v4, v6))
    const written = await loadAsnTable(v4, v6, cache)
    expect(await probe(written)).toEqual(fromCsv)
    await written.close()
    expect(existsSync(cache)).toBe(true)
    // The CSV files are gone: only the cache can answer now.
    const fromCache = await loadAsnTable(join(dir, 'missing-v4.csv'), join(dir, 'missing-v6.csv'), cache)
    expect(await probe(fromCache)).toEqual(fromCsv)
    await fromCache.close()
  })

  it('opens the file `pnpm build` wrote first, read only, and writes no cache beside it', async () => {
    const built = join(dir, 'dist', 'asn.bin')
    const expected = await probe(await loadAsnTable(v4, v6))
    await (await loadAsnTable(v4, v6, built)).close()
    const cache = join(dir, 'never-written', 'asn.bin')
    // No CSV to fall back on: only the built file can answer.
    const table = await loadAsnTable(join(dir, 'missing-v4.csv'), join(dir, 'missing-v6.csv'), cache, { built })
    expect(await probe(table)).toEqual(expected)
    await table.close()
    expect(existsSync(cache)).toBe(false)
    // A damaged built file is passed over for the cache, rebuilt from the CSV.
    writeFileSync(built, 'ASN1')
    const rebuilt = await loadAsnTable(v4, v6, cache, { built })
    expect(await probe(rebuilt)).toEqual(expected)
    await rebuilt.close()
    expect(existsSync(cache)).toBe(true)
  })

  it('rebuilds a cache file of another format version or a damaged one from the CSV', async () => {
    const cache = join(dir, 'stale', 'asn.bin')
    const expected = await probe(await loadAsnTable(v4, v6))
    for (const stale of [Buffer.from('ASN1 and some columns'), Buffer.alloc(0)]) {
      mkdirSync(dirname(cache), { recursive: true })
      writeFileSync(cache, stale)
      const table = await loadAsnTable(v4, v6, cache)
      expect(await probe(table)).toEqual(expected)
      await table.close()
      const rebuilt = await loadAsnTable(join(dir, 'missing-v4.csv'), join(dir, 'missing-v6.csv'), cache)
      expect(await probe(rebuilt)).toEqual(expected)
      await rebuilt.close()
    }
  })
})

// The real data (~515k ranges), read from its file through a page cache a few pages small, against a plain binary
// search over the parsed CSV columns, as the table answered when it was held in memory whole.
describe('ASN table of @ip-location-db/asn read on demand', () => {
  const SEED = Number(process.env.GEOIP_TEST_SEED ?? 20261129)
  const LOOKUPS = 5000
  const paths = defaultGeoipPaths()
  let table: AsnTable
  let columns: AsnColumns
  beforeAll(async () => {
    columns = await parseAsnCsv(paths.asnV4, paths.asnV6)
    table = await loadAsnTable(paths.asnV4, paths.asnV6, join(dir, 'real', 'asn.bin'), { cachePages: 8 })
  }, 60_000)
  afterAll(async () => {
    await table?.close()
  })

  const reference = (at: number, asn: Uint32Array, org: Uint32Array) => (at < 0 ? null : { asn: asn[at]!, organisation: columns.orgs[org[at]!] || null })
  const lastAtMost = (n: number, atMost: (i: number) => boolean) => {
    let lo = 0
    let hi = n - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      if (atMost(mid)) lo = mid + 1
      else hi = mid - 1
    }
    return hi
  }

  it(`finds for ${LOOKUPS} seeded IPv4 addresses, every range's edges and the space's ends what the CSV says (seed ${SEED})`, async () => {
    const c = columns
    const addresses = [0, 2 ** 32 - 1, 134744072]
    for (let i = 0; i < c.v4Start.length; i += 997) addresses.push(c.v4Start[i]!, c.v4End[i]!, c.v4End[i]! + 1, c.v4Start[i]! - 1)
    let x = SEED >>> 0 || 1
    for (let i = 0; i < LOOKUPS; i++) {
      x ^= x << 13
      x ^= x >>> 17
      x ^= x << 5
      addresses.push(x >>> 0)
    }
    let found = 0
    for (const ip of addresses.filter((a) => a >= 0 && a < 2 ** 32)) {
      const at = lastAtMost(c.v4Start.length, (i) => c.v4Start[i]! <= ip)
      const expected = at >= 0 && c.v4End[at]! >= ip ? reference(at, c.v4Asn, c.v4Org) : null
      expect(await table.lookupV4(ip), `${ip}`).toEqual(expected)
      if (expected) found++
    }
    // Most of the space is announced: a table that never answers would not pass.
    expect(found).toBeGreaterThan(addresses.length / 2)
  }, 60_000)

  it(`finds for ${LOOKUPS} seeded IPv6 addresses and every range's edges what the CSV says (seed ${SEED})`, async () => {
    const c = columns
    const le = (aHi: bigint, aLo: bigint, bHi: bigint, bLo: bigint) => aHi < bHi || (aHi === bHi && aLo <= bLo)
    const addresses: [bigint, bigint][] = [[0n, 0n], [2n ** 64n - 1n, 2n ** 64n - 1n]]
    for (let i = 0; i < c.v6StartHi.length; i += 499) addresses.push([c.v6StartHi[i]!, c.v6StartLo[i]!], [c.v6EndHi[i]!, c.v6EndLo[i]!])
    let x = SEED >>> 0 || 1
    const next = () => {
      x ^= x << 13
      x ^= x >>> 17
      x ^= x << 5
      return BigInt(x >>> 0)
    }
    for (let i = 0; i < LOOKUPS; i++) {
      // Most of the IPv6 space is unassigned: every draw in 2000::/4, where the data is.
      const hi = (0x2n << 60n) | ((next() << 28n) ^ next()) & ((1n << 60n) - 1n)
      addresses.push([hi, (next() << 32n) | next()])
    }
    let found = 0
    for (const [hi, lo] of addresses) {
      const at = lastAtMost(c.v6StartHi.length, (i) => le(c.v6StartHi[i]!, c.v6StartLo[i]!, hi, lo))
      const expected = at >= 0 && le(hi, lo, c.v6EndHi[at]!, c.v6EndLo[at]!) ? reference(at, c.v6Asn, c.v6Org) : null
      expect(await table.lookupV6(hi, lo), `${hi}:${lo}`).toEqual(expected)
      if (expected) found++
    }
    expect(found).toBeGreaterThan(100)
  }, 60_000)
})
