import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import maxmind, { type Reader, type Response } from 'maxmind'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultGeoipPaths } from '../src/services/geoip/geoip-service.js'
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
      : ['::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db8::', '2001:4860:4860::8888', '2a00:1450:4001::1', '::ffff:8.8.8.8', '2606:4700:4700::1111']
    const addresses = edges.map((e) => ({ ip: e, bytes: bytesOf(e, length) }))
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
    const answers = await Promise.all(ips.map((ip) => ours.get(bytesOf(ip, length))))
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
        await expect(file.get(bytesOf(ip, 4))).rejects.toThrow(MmdbFormatError)
      }
    } finally {
      await file.close()
    }
  })
})

function bytesOf(ip: string, length: 4 | 16): Uint8Array {
  if (length === 4) return Uint8Array.from(ip.split('.').map(Number))
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip)
  const head = v4 ? ip.slice(0, -v4[1]!.length) + '0:0' : ip
  const [left, right = ''] = head.split('::')
  const parts = (s: string) => (s ? s.split(':') : [])
  const groups = head.includes('::') ? [...parts(left!), ...Array(8 - parts(left!).length - parts(right).length).fill('0'), ...parts(right)] : parts(head)
  const out = new Uint8Array(16)
  groups.forEach((g, i) => {
    const n = parseInt(g, 16)
    out[2 * i] = n >> 8
    out[2 * i + 1] = n & 0xff
  })
  if (v4) out.set(v4[1]!.split('.').map(Number), 12)
  return out
}
