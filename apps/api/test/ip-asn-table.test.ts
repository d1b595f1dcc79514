import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadAsnTable } from '../src/services/geoip/geoip-asn-table.js'
import { parseIp } from '@tempbox/ip'

const dir = mkdtempSync(join(tmpdir(), 'tempbox-asn-'))
const v4 = join(dir, 'v4.csv')
const v6 = join(dir, 'v6.csv')
// Same shape as @ip-location-db/asn's *-num.csv files, including a quoted name with a comma and CRLF line ends.
writeFileSync(v4, '16777216,16777471,13335,"Cloudflare, Inc."\r\n134744064,134744319,15169,Google LLC\r\n134744320,134744575,15169,\n')
const g = (ip: string) => parseIp(ip)!.value
writeFileSync(v6, `${g('2001:4860::')},${g('2001:4860:ffff:ffff:ffff:ffff:ffff:ffff')},15169,Google LLC\n${g('2606:4700::')},${g('2606:4700:ffff:ffff:ffff:ffff:ffff:ffff')},13335,"Cloudflare ""CF"", Inc."\n`)

function probe(table: Awaited<ReturnType<typeof loadAsnTable>>) {
  const v6 = (ip: string) => {
    const value = g(ip)
    return table.lookupV6(value >> 64n, value & ((1n << 64n) - 1n))
  }
  return {
    cloudflare: table.lookupV4(Number(g('1.0.0.1'))),
    google: table.lookupV4(Number(g('8.8.8.8'))),
    noName: table.lookupV4(Number(g('8.8.9.1'))),
    gap: table.lookupV4(Number(g('9.9.9.9'))),
    before: table.lookupV4(Number(g('0.0.0.1'))),
    googleV6: v6('2001:4860:4860::8888'),
    cloudflareV6: v6('2606:4700:4700::1111'),
    gapV6: v6('2a00::1'),
  }
}

describe('ASN range table', () => {
  it('finds the range holding an address by binary search (v4 and v6), and nothing in the gaps', async () => {
    const found = probe(await loadAsnTable(v4, v6))
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
    const fromCsv = probe(await loadAsnTable(v4, v6, cache))
    expect(existsSync(cache)).toBe(true)
    // The CSV files are gone: only the cache can answer now.
    const fromCache = probe(await loadAsnTable(join(dir, 'missing-v4.csv'), join(dir, 'missing-v6.csv'), cache))
    expect(fromCache).toEqual(fromCsv)
  })
})
