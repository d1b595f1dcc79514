import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * IP → AS number + organisation from the @ip-location-db/asn CSV files (no .mmdb is published for ASN).
 * The CSV is turned once into sorted typed arrays (~500k ranges) and searched with a binary search:
 * v4 ranges as uint32 pairs, v6 ranges as two uint64 halves each.
 */
export interface AsnTable {
  lookupV4(ip: number): AsnHit | null
  lookupV6(hi: bigint, lo: bigint): AsnHit | null
}
export interface AsnHit {
  asn: number
  organisation: string | null
}

const MASK64 = (1n << 64n) - 1n

/** The table's columns; v6 addresses are split into high and low 64-bit halves. */
interface AsnColumns {
  v4Start: Uint32Array
  v4End: Uint32Array
  v4Asn: Uint32Array
  v4Org: Uint32Array
  v6StartHi: BigUint64Array
  v6StartLo: BigUint64Array
  v6EndHi: BigUint64Array
  v6EndLo: BigUint64Array
  v6Asn: Uint32Array
  v6Org: Uint32Array
  orgs: string[]
}

const CACHE_MAGIC = 0x41534e31 // "ASN1"

/**
 * Loads the table, from `cacheFile` when it was built from these same CSV files (parsing ~500k CSV rows
 * takes seconds; reading the binary copy takes milliseconds), else from the CSV, then writes the cache.
 */
export async function loadAsnTable(v4CsvPath: string, v6CsvPath: string, cacheFile?: string): Promise<AsnTable> {
  if (cacheFile) {
    const cached = await readCache(cacheFile).catch(() => null)
    if (cached) return tableFrom(cached)
  }
  const columns = await parseCsv(v4CsvPath, v6CsvPath)
  if (cacheFile) {
    // Best effort: a read-only install still works, just without the faster start.
    await writeCache(cacheFile, columns).catch(() => undefined)
  }
  return tableFrom(columns)
}

async function parseCsv(v4CsvPath: string, v6CsvPath: string): Promise<AsnColumns> {
  const orgs: string[] = []
  const orgIndex = new Map<string, number>()
  const internOrg = (name: string): number => {
    let i = orgIndex.get(name)
    if (i === undefined) {
      i = orgs.length
      orgs.push(name)
      orgIndex.set(name, i)
    }
    return i
  }

  const v4Text = await readFile(v4CsvPath, 'utf8')
  const v4Lines = countLines(v4Text)
  const v4Start = new Uint32Array(v4Lines)
  const v4End = new Uint32Array(v4Lines)
  const v4Asn = new Uint32Array(v4Lines)
  const v4Org = new Uint32Array(v4Lines)
  let n4 = 0
  forEachRow(v4Text, (start, end, asn, org) => {
    v4Start[n4] = Number(start)
    v4End[n4] = Number(end)
    v4Asn[n4] = asn
    v4Org[n4] = internOrg(org)
    n4++
  })

  const v6Text = await readFile(v6CsvPath, 'utf8')
  const v6Lines = countLines(v6Text)
  const v6StartHi = new BigUint64Array(v6Lines)
  const v6StartLo = new BigUint64Array(v6Lines)
  const v6EndHi = new BigUint64Array(v6Lines)
  const v6EndLo = new BigUint64Array(v6Lines)
  const v6Asn = new Uint32Array(v6Lines)
  const v6Org = new Uint32Array(v6Lines)
  let n6 = 0
  forEachRow(v6Text, (start, end, asn, org) => {
    const s = BigInt(start)
    const e = BigInt(end)
    v6StartHi[n6] = s >> 64n
    v6StartLo[n6] = s & MASK64
    v6EndHi[n6] = e >> 64n
    v6EndLo[n6] = e & MASK64
    v6Asn[n6] = asn
    v6Org[n6] = internOrg(org)
    n6++
  })
  return {
    v4Start: v4Start.subarray(0, n4), v4End: v4End.subarray(0, n4), v4Asn: v4Asn.subarray(0, n4), v4Org: v4Org.subarray(0, n4),
    v6StartHi: v6StartHi.subarray(0, n6), v6StartLo: v6StartLo.subarray(0, n6), v6EndHi: v6EndHi.subarray(0, n6), v6EndLo: v6EndLo.subarray(0, n6),
    v6Asn: v6Asn.subarray(0, n6), v6Org: v6Org.subarray(0, n6),
    orgs,
  }
}

/** Layout: header (magic, n4, n6, org bytes) · v4 columns · v6 columns (8-byte aligned) · organisations as JSON. */
async function writeCache(file: string, c: AsnColumns): Promise<void> {
  const orgBytes = Buffer.from(JSON.stringify(c.orgs), 'utf8')
  const header = new Uint32Array([CACHE_MAGIC, c.v4Start.length, c.v6StartHi.length, orgBytes.length])
  const pad = (c.v4Start.length * 16 + 16) % 8 === 0 ? 0 : 4
  const parts = [header, c.v4Start, c.v4End, c.v4Asn, c.v4Org, new Uint8Array(pad), c.v6StartHi, c.v6StartLo, c.v6EndHi, c.v6EndLo, c.v6Asn, c.v6Org]
  await mkdir(dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  await writeFile(tmp, Buffer.concat([...parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)), orgBytes]))
  await rename(tmp, file)
}

async function readCache(file: string): Promise<AsnColumns | null> {
  const bytes = await readFile(file)
  // Typed arrays need aligned offsets: copy into a fresh buffer.
  const buf = new ArrayBuffer(bytes.byteLength)
  new Uint8Array(buf).set(bytes)
  const [magic, n4 = 0, n6 = 0, orgLength = 0] = new Uint32Array(buf, 0, 4)
  if (magic !== CACHE_MAGIC) return null
  let offset = 16
  const u32 = (n: number) => {
    const a = new Uint32Array(buf, offset, n)
    offset += n * 4
    return a
  }
  const u64 = (n: number) => {
    const a = new BigUint64Array(buf, offset, n)
    offset += n * 8
    return a
  }
  const v4Start = u32(n4), v4End = u32(n4), v4Asn = u32(n4), v4Org = u32(n4)
  if (offset % 8 !== 0) offset += 4
  const v6StartHi = u64(n6), v6StartLo = u64(n6), v6EndHi = u64(n6), v6EndLo = u64(n6)
  const v6Asn = u32(n6), v6Org = u32(n6)
  if (offset + orgLength !== buf.byteLength) return null
  const orgs = JSON.parse(Buffer.from(buf, offset, orgLength).toString('utf8')) as string[]
  return { v4Start, v4End, v4Asn, v4Org, v6StartHi, v6StartLo, v6EndHi, v6EndLo, v6Asn, v6Org, orgs }
}

function tableFrom(c: AsnColumns): AsnTable {
  const { v4Start, v4End, v4Asn, v4Org, v6StartHi, v6StartLo, v6EndHi, v6EndLo, v6Asn, v6Org, orgs } = c
  const n4 = v4Start.length
  const n6 = v6StartHi.length
  const hit = (asn: number, org: number): AsnHit => ({ asn, organisation: orgs[org] || null })

  return {
    lookupV4(ip) {
      // Last range whose start is ≤ ip; the files are sorted by start and ranges do not overlap.
      let lo = 0
      let hi = n4 - 1
      let found = -1
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1
        if (v4Start[mid]! <= ip) {
          found = mid
          lo = mid + 1
        } else hi = mid - 1
      }
      if (found < 0 || v4End[found]! < ip) return null
      return hit(v4Asn[found]!, v4Org[found]!)
    },
    lookupV6(ipHi, ipLo) {
      const le = (aHi: bigint, aLo: bigint, bHi: bigint, bLo: bigint) => aHi < bHi || (aHi === bHi && aLo <= bLo)
      let lo = 0
      let hi = n6 - 1
      let found = -1
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1
        if (le(v6StartHi[mid]!, v6StartLo[mid]!, ipHi, ipLo)) {
          found = mid
          lo = mid + 1
        } else hi = mid - 1
      }
      if (found < 0 || !le(ipHi, ipLo, v6EndHi[found]!, v6EndLo[found]!)) return null
      return hit(v6Asn[found]!, v6Org[found]!)
    },
  }
}

function countLines(text: string): number {
  let n = 0
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++
  return text.endsWith('\n') ? n : n + 1
}

/** Rows are `start,end,asn,organisation`; the organisation may be quoted with "" escapes. */
function forEachRow(text: string, fn: (start: string, end: string, asn: number, org: string) => void): void {
  let pos = 0
  while (pos < text.length) {
    let eol = text.indexOf('\n', pos)
    if (eol === -1) eol = text.length
    const c1 = text.indexOf(',', pos)
    const c2 = text.indexOf(',', c1 + 1)
    const c3 = text.indexOf(',', c2 + 1)
    if (c1 > 0 && c3 > 0 && c3 < eol) {
      let org = text.slice(c3 + 1, text.charCodeAt(eol - 1) === 13 ? eol - 1 : eol)
      if (org.startsWith('"')) org = org.slice(1, -1).replace(/""/g, '"')
      fn(text.slice(pos, c1), text.slice(c1 + 1, c2), Number(text.slice(c2 + 1, c3)), org)
    }
    pos = eol + 1
  }
}
