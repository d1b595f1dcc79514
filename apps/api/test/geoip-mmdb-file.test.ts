import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import maxmind, { type Reader, type Response } from 'maxmind'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseIp } from '@tempbox/ip'
import { addressBytes, defaultGeoipPaths } from '../src/services/geoip/geoip-service.js'
import { MmdbFormatError, openMmdbFile, type MmdbFile } from '../src/services/geoip/mmdb-file.js'

// The same addresses on every machine; GEOIP_TEST_SEED explores others (a failure names its seed).
const SEED = Number(process.env.GEOIP_TEST_SEED ?? 20261128)
const LOOKUPS = 3000

/** xorshift32: a small seeded stream of addresses. */
function randomBytes(seed: number): (n: number) => Uint8Array {
  let x = seed >>> 0 || 1
  return (n) => {
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i++) {
      x ^= x << 13
      x ^= x >>> 17
      x ^= x << 5
      out[i] = x & 0xff
    }
    return out
  }
}

const text = (b: Uint8Array) =>
  b.length === 4 ? [...b].join('.') : Array.from({ length: 8 }, (_, i) => ((b[2 * i]! << 8) | b[2 * i + 1]!).toString(16)).join(':')

describe.each([
  ['IPv4', 'cityV4', 4],
  ['IPv6', 'cityV6', 16],
] as const)('the DB-IP city file (%s) read on demand', (_name, file, length) => {
  const path = defaultGeoipPaths()[file]
  let ours: MmdbFile
  let reference: Reader<Response>
  beforeAll(async () => {
    ours = await openMmdbFile(path, { cachePages: 64 })
    reference = await maxmind.open(path, { watchForUpdates: false })
  }, 60_000)
  afterAll(async () => {
    await ours?.close()
  })

  it(`answers as maxmind, which reads the whole file, for ${LOOKUPS} seeded addresses and the edges (seed ${SEED})`, async () => {
    const next = randomBytes(SEED + length)
    const edges = length === 4
      ? ['0.0.0.0', '255.255.255.255', '1.0.0.0', '8.8.8.8', '81.2.69.142', '223.255.255.255', '100.64.0.1']
      : ['::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db8::', '2001:4860:4860::8888', '2a00:1450:4001::1', '::ffff:808:808', '2606:4700:4700::1111']
    const addresses = edges.map((e) => ({ ip: e, bytes: bytesOf(e) }))
    for (let i = 0; i < LOOKUPS; i++) {
      const bytes = next(length)
      // Most of the IPv6 space is unassigned: keep half of the draws in 2000::/4, where the data is.
      if (length === 16 && i % 2 === 0) bytes[0] = 0x20 | (bytes[0]! & 0x0f)
      addresses.push({ ip: text(bytes), bytes })
    }
    let found = 0
    for (const { ip, bytes } of addresses) {
      const expected = reference.get(ip)
      if (expected) found++
      expect(await ours.get(bytes), ip).toEqual(expected)
    }
    // The comparison means something only if most addresses have a record.
    expect(found).toBeGreaterThan(addresses.length / 3)
  }, 60_000)

  it('answers lookups made at the same time, each its own record', async () => {
    const ips = length === 4 ? ['8.8.8.8', '1.1.1.1', '81.2.69.142', '203.0.113.9'] : ['2001:4860:4860::8888', '2606:4700:4700::1111', '2a00:1450:4001::1', '2001:db8::1']
    const answers = await Promise.all(ips.map((ip) => ours.get(bytesOf(ip))))
    expect(answers).toEqual(ips.map((ip) => reference.get(ip)))
  })
})

describe('a damaged city file', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tempbox-mmdb-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('is refused at open with a clear error when its metadata is missing', async () => {
    const cut = join(dir, 'cut.mmdb')
    const whole = readFileSync(defaultGeoipPaths().cityV4)
    writeFileSync(cut, whole.subarray(0, whole.length - 20_000))
    await expect(openMmdbFile(cut)).rejects.toThrow(MmdbFormatError)
    await expect(openMmdbFile(cut)).rejects.toThrow(/is not a readable MaxMind DB file: no metadata marker/)
  })

  it('is refused at open when it is not a MaxMind DB at all', async () => {
    const other = join(dir, 'other.mmdb')
    writeFileSync(other, Buffer.alloc(4096, 7))
    await expect(openMmdbFile(other)).rejects.toThrow(/no metadata marker/)
  })

  it('refuses a lookup whose record is damaged with a clear error, quickly, never a wrong answer or a stall', async () => {
    const path = defaultGeoipPaths().cityV4
    const { searchTreeSize } = (await maxmind.open(path, { watchForUpdates: false })).metadata
    const whole = readFileSync(path)
    const marker = whole.lastIndexOf(Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1'))
    // The tree and the metadata kept, every data byte set to 0xff: each record now claims to be a map of 65,000+ pairs.
    const broken = Buffer.from(whole)
    broken.fill(0xff, searchTreeSize + 16, marker)
    const damaged = join(dir, 'damaged.mmdb')
    writeFileSync(damaged, broken)
    const file = await openMmdbFile(damaged)
    try {
      for (const ip of ['8.8.8.8', '81.2.69.142', '1.1.1.1']) {
        await expect(file.get(bytesOf(ip))).rejects.toThrow(MmdbFormatError)
      }
    } finally {
      await file.close()
    }
  })
})

/** What the service hands the reader for an address (::ffff:808:808 stays IPv6; the dotted form would be IPv4). */
function bytesOf(ip: string): Uint8Array {
  return addressBytes(parseIp(ip)!)
}
