import { mkdir, open, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { parseAsnCsv, type AsnColumns } from './asn-csv.js'
import { memoryPages, PageCache, readFully, type PageSource } from './page-cache.js'

/**
 * IP → AS number + organisation from the @ip-location-db/asn CSV files (no .mmdb is published for ASN). The CSV is
 * turned once into a binary file of sorted ranges in 4 KiB pages; a lookup binary-searches a small in-memory index of
 * each page's first start, then the one page, read on demand through a bounded page cache (the file is ~13 MB).
 */
export interface AsnTable {
  lookupV4(ip: number): Promise<AsnHit | null>
  lookupV6(hi: bigint, lo: bigint): Promise<AsnHit | null>
  close(): Promise<void>
}
export interface AsnHit {
  asn: number
  organisation: string | null
}

/** "ASN2": v1 files held columns read whole; they are rebuilt. */
const MAGIC = 0x41534e32
const PAGE = 4096
const HEADER_BYTES = 20
const ROW4 = 16 // start, end, asn, org: u32 each
const ROW6 = 40 // start hi, start lo, end hi, end lo: u64 each; asn, org: u32 each
const ROWS4 = Math.floor(PAGE / ROW4)
const ROWS6 = Math.floor(PAGE / ROW6)

/**
 * Where each part of the file lies. Header (magic, v4 rows, v6 rows, organisations, organisation text bytes) · each v4
 * page's first start (u32) · each v6 page's first start (2 × u64) · v4 rows · v6 rows · organisation offsets (u32,
 * one more than organisations) · organisation names as UTF-8. Row sections start on a page; all numbers little-endian.
 */
function layout(n4: number, n6: number, nOrgs: number, orgTextBytes: number) {
  const pages4 = Math.ceil(n4 / ROWS4)
  const pages6 = Math.ceil(n6 / ROWS6)
  const index4 = HEADER_BYTES
  const index6 = align(index4 + pages4 * 4, 8)
  const indexEnd = index6 + pages6 * 16
  const rows4 = align(indexEnd, PAGE)
  const rows6 = rows4 + pages4 * PAGE
  const orgOffsets = rows6 + pages6 * PAGE
  const orgText = orgOffsets + (nOrgs + 1) * 4
  return { pages4, pages6, index4, index6, indexEnd, rows4, rows6, orgOffsets, orgText, size: orgText + orgTextBytes }
}
type Layout = ReturnType<typeof layout>

const align = (n: number, to: number) => Math.ceil(n / to) * to

/**
 * Opens the table from `options.built` (the file `pnpm build` writes, read only) or from `cacheFile` when it was built
 * from these same CSV files (their names carry the data's version), else parses the CSV (seconds) and writes
 * `cacheFile` first. Without a file it can write, the table stays in memory.
 */
export async function loadAsnTable(
  v4CsvPath: string, v6CsvPath: string, cacheFile?: string, options: { cachePages?: number; built?: string } = {},
): Promise<AsnTable> {
  const cachePages = options.cachePages ?? 256
  if (options.built) {
    const opened = await openAsnFile(options.built, cachePages).catch(() => null)
    if (opened) return opened
  }
  if (cacheFile) {
    const opened = await openAsnFile(cacheFile, cachePages).catch(() => null)
    if (opened) return opened
  }
  const bytes = serialize(await parseAsnCsv(v4CsvPath, v6CsvPath))
  if (cacheFile) {
    const written = await writeAtomically(cacheFile, bytes).then(() => openAsnFile(cacheFile, cachePages)).catch(() => null)
    if (written) return written
  }
  // A read-only install still answers, holding the table (~13 MB) in memory.
  return tableFrom(memoryPages(bytes), readHeader(bytes)!, bytes, async () => undefined)
}

async function writeAtomically(file: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  await writeFile(tmp, bytes)
  await rename(tmp, file)
}

async function openAsnFile(path: string, cachePages: number): Promise<AsnTable | null> {
  const file = await open(path, 'r')
  let table: AsnTable | null = null
  try {
    const { size } = await file.stat()
    const head = Buffer.alloc(Math.min(size, HEADER_BYTES))
    await readFully(file, head, 0)
    const header = readHeader(head)
    // Another version's file, or a damaged one: rebuilt from the CSV.
    if (!header || header.at.size !== size) return null
    const index = Buffer.alloc(header.at.indexEnd)
    await readFully(file, index, 0)
    table = tableFrom(new PageCache(file, size, PAGE, cachePages), header, index, () => file.close())
    return table
  } finally {
    if (!table) await file.close()
  }
}

function readHeader(b: Buffer): { n4: number; n6: number; at: Layout } | null {
  if (b.length < HEADER_BYTES || b.readUInt32LE(0) !== MAGIC) return null
  const n4 = b.readUInt32LE(4)
  const n6 = b.readUInt32LE(8)
  return { n4, n6, at: layout(n4, n6, b.readUInt32LE(12), b.readUInt32LE(16)) }
}

function serialize(c: AsnColumns): Buffer {
  const names = c.orgs.map((o) => Buffer.from(o, 'utf8'))
  const textBytes = names.reduce((n, b) => n + b.length, 0)
  const n4 = c.v4Start.length
  const n6 = c.v6StartHi.length
  const at = layout(n4, n6, names.length, textBytes)
  const b = Buffer.alloc(at.size)
  ;[MAGIC, n4, n6, names.length, textBytes].forEach((v, i) => b.writeUInt32LE(v, i * 4))
  for (let i = 0; i < n4; i++) {
    const row = at.rows4 + Math.floor(i / ROWS4) * PAGE + (i % ROWS4) * ROW4
    if (i % ROWS4 === 0) b.writeUInt32LE(c.v4Start[i]!, at.index4 + (i / ROWS4) * 4)
    b.writeUInt32LE(c.v4Start[i]!, row)
    b.writeUInt32LE(c.v4End[i]!, row + 4)
    b.writeUInt32LE(c.v4Asn[i]!, row + 8)
    b.writeUInt32LE(c.v4Org[i]!, row + 12)
  }
  for (let i = 0; i < n6; i++) {
    const row = at.rows6 + Math.floor(i / ROWS6) * PAGE + (i % ROWS6) * ROW6
    if (i % ROWS6 === 0) {
      b.writeBigUInt64LE(c.v6StartHi[i]!, at.index6 + (i / ROWS6) * 16)
      b.writeBigUInt64LE(c.v6StartLo[i]!, at.index6 + (i / ROWS6) * 16 + 8)
    }
    b.writeBigUInt64LE(c.v6StartHi[i]!, row)
    b.writeBigUInt64LE(c.v6StartLo[i]!, row + 8)
    b.writeBigUInt64LE(c.v6EndHi[i]!, row + 16)
    b.writeBigUInt64LE(c.v6EndLo[i]!, row + 24)
    b.writeUInt32LE(c.v6Asn[i]!, row + 32)
    b.writeUInt32LE(c.v6Org[i]!, row + 36)
  }
  let text = at.orgText
  names.forEach((name, i) => {
    b.writeUInt32LE(text - at.orgText, at.orgOffsets + i * 4)
    text += name.copy(b, text)
  })
  b.writeUInt32LE(text - at.orgText, at.orgOffsets + names.length * 4)
  return b
}

/** `index` holds the file's first `at.indexEnd` bytes; only the page index is kept from it. */
function tableFrom(pages: PageSource, { n4, n6, at }: { n4: number; n6: number; at: Layout }, index: Buffer, close: () => Promise<void>): AsnTable {
  const index4 = Uint32Array.from({ length: at.pages4 }, (_, p) => index.readUInt32LE(at.index4 + p * 4))
  const index6Hi = BigUint64Array.from({ length: at.pages6 }, (_, p) => index.readBigUInt64LE(at.index6 + p * 16))
  const index6Lo = BigUint64Array.from({ length: at.pages6 }, (_, p) => index.readBigUInt64LE(at.index6 + p * 16 + 8))
  // Pages at hand answer without a promise per read: a lookup whose pages are cached costs one microtask, not four.
  const read = (offset: number, length: number) => pages.cached(offset, length) ?? pages.bytes(offset, length)
  const le = (aHi: bigint, aLo: bigint, bHi: bigint, bLo: bigint) => aHi < bHi || (aHi === bHi && aLo <= bLo)

  const hit = (asn: number, org: number) =>
    then(read(at.orgOffsets + org * 4, 8), (offsets) => {
      const start = offsets.readUInt32LE(0)
      const end = offsets.readUInt32LE(4)
      const named = (name: string): AsnHit => ({ asn, organisation: name || null })
      return end > start ? then(read(at.orgText + start, end - start), (b) => named(b.toString('utf8'))) : named('')
    })

  const inRows4 = (rows: Buffer, ip: number) => {
    const r = lastAtMost(rows.length / ROW4, (i) => rows.readUInt32LE(i * ROW4) <= ip) * ROW4
    return rows.readUInt32LE(r + 4) < ip ? null : hit(rows.readUInt32LE(r + 8), rows.readUInt32LE(r + 12))
  }
  const inRows6 = (rows: Buffer, ipHi: bigint, ipLo: bigint) => {
    const r = lastAtMost(rows.length / ROW6, (i) => le(rows.readBigUInt64LE(i * ROW6), rows.readBigUInt64LE(i * ROW6 + 8), ipHi, ipLo)) * ROW6
    if (!le(ipHi, ipLo, rows.readBigUInt64LE(r + 16), rows.readBigUInt64LE(r + 24))) return null
    return hit(rows.readUInt32LE(r + 32), rows.readUInt32LE(r + 36))
  }

  return {
    async lookupV4(ip) {
      // The page whose first start is the last ≤ ip holds the one range that can: ranges are sorted, never overlapping.
      const page = lastAtMost(at.pages4, (p) => index4[p]! <= ip)
      if (page < 0) return null
      return then(read(at.rows4 + page * PAGE, Math.min(ROWS4, n4 - page * ROWS4) * ROW4), (rows) => inRows4(rows, ip))
    },
    async lookupV6(ipHi, ipLo) {
      const page = lastAtMost(at.pages6, (p) => le(index6Hi[p]!, index6Lo[p]!, ipHi, ipLo))
      if (page < 0) return null
      return then(read(at.rows6 + page * PAGE, Math.min(ROWS6, n6 - page * ROWS6) * ROW6), (rows) => inRows6(rows, ipHi, ipLo))
    },
    close,
  }
}

function then<T, R>(value: T | Promise<T>, next: (value: T) => R): R | Promise<Awaited<R>> {
  return value instanceof Promise ? (value.then(next) as Promise<Awaited<R>>) : next(value)
}

/** The last of `0..n-1` for which `atMost` holds (it holds for a prefix), or -1. */
function lastAtMost(n: number, atMost: (i: number) => boolean): number {
  let lo = 0
  let hi = n - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    if (atMost(mid)) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}
