import { readFile } from 'node:fs/promises'

/** The @ip-location-db/asn CSV rows as sorted columns; v6 addresses split into high and low 64-bit halves. */
export interface AsnColumns {
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
  /** Organisation names, each once; rows hold an index into this list. */
  orgs: string[]
}

const MASK64 = (1n << 64n) - 1n

/**
 * Parses both files (~515k rows, a second or so); the files are sorted by start and ranges do not overlap. Read as bytes,
 * not text: as strings the CSV went into the V8 heap, which the api's first start (the one that builds the cache) then
 * kept grown to the end.
 */
export async function parseAsnCsv(v4CsvPath: string, v6CsvPath: string): Promise<AsnColumns> {
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

  const v4Bytes = await readFile(v4CsvPath)
  const v4Lines = countLines(v4Bytes)
  const v4Start = new Uint32Array(v4Lines)
  const v4End = new Uint32Array(v4Lines)
  const v4Asn = new Uint32Array(v4Lines)
  const v4Org = new Uint32Array(v4Lines)
  let n4 = 0
  forEachRow(v4Bytes, (row, c1, c2, c3, end) => {
    v4Start[n4] = decimal(row, 0, c1)
    v4End[n4] = decimal(row, c1 + 1, c2)
    v4Asn[n4] = decimal(row, c2 + 1, c3)
    v4Org[n4] = internOrg(orgName(row, c3 + 1, end))
    n4++
  })

  const v6Bytes = await readFile(v6CsvPath)
  const v6Lines = countLines(v6Bytes)
  const v6StartHi = new BigUint64Array(v6Lines)
  const v6StartLo = new BigUint64Array(v6Lines)
  const v6EndHi = new BigUint64Array(v6Lines)
  const v6EndLo = new BigUint64Array(v6Lines)
  const v6Asn = new Uint32Array(v6Lines)
  const v6Org = new Uint32Array(v6Lines)
  let n6 = 0
  forEachRow(v6Bytes, (row, c1, c2, c3, end) => {
    const s = BigInt(row.toString('latin1', 0, c1))
    const e = BigInt(row.toString('latin1', c1 + 1, c2))
    v6StartHi[n6] = s >> 64n
    v6StartLo[n6] = s & MASK64
    v6EndHi[n6] = e >> 64n
    v6EndLo[n6] = e & MASK64
    v6Asn[n6] = decimal(row, c2 + 1, c3)
    v6Org[n6] = internOrg(orgName(row, c3 + 1, end))
    n6++
  })
  return {
    v4Start: v4Start.subarray(0, n4), v4End: v4End.subarray(0, n4), v4Asn: v4Asn.subarray(0, n4), v4Org: v4Org.subarray(0, n4),
    v6StartHi: v6StartHi.subarray(0, n6), v6StartLo: v6StartLo.subarray(0, n6), v6EndHi: v6EndHi.subarray(0, n6), v6EndLo: v6EndLo.subarray(0, n6),
    v6Asn: v6Asn.subarray(0, n6), v6Org: v6Org.subarray(0, n6),
    orgs,
  }
}

const LF = 0x0a
const CR = 0x0d
const COMMA = 0x2c

function countLines(bytes: Buffer): number {
  let n = 0
  for (let i = bytes.indexOf(LF); i !== -1; i = bytes.indexOf(LF, i + 1)) n++
  return bytes.length > 0 && bytes[bytes.length - 1] !== LF ? n + 1 : n
}

/** The decimal number in bytes [from, to), as Number() reads the digits there (NaN, stored as 0, for anything else). */
function decimal(row: Buffer, from: number, to: number): number {
  let n = 0
  for (let i = from; i < to; i++) {
    const digit = row[i]! - 0x30
    if (digit < 0 || digit > 9) return Number(row.toString('latin1', from, to))
    n = n * 10 + digit
  }
  return n
}

/** The organisation field, UTF-8; quoted with "" escapes when it holds a comma or a quote. */
function orgName(row: Buffer, from: number, to: number): string {
  const name = row.toString('utf8', from, to)
  return name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name
}

/** Rows are `start,end,asn,organisation`, one per line (LF or CRLF): each row's bytes and where its commas and end are. */
function forEachRow(bytes: Buffer, fn: (row: Buffer, c1: number, c2: number, c3: number, end: number) => void): void {
  let pos = 0
  while (pos < bytes.length) {
    let eol = bytes.indexOf(LF, pos)
    if (eol === -1) eol = bytes.length
    const row = bytes.subarray(pos, bytes[eol - 1] === CR ? eol - 1 : eol)
    const c1 = row.indexOf(COMMA)
    const c2 = c1 < 0 ? -1 : row.indexOf(COMMA, c1 + 1)
    const c3 = c2 < 0 ? -1 : row.indexOf(COMMA, c2 + 1)
    if (c1 > 0 && c3 > 0) fn(row, c1, c2, c3, row.length)
    pos = eol + 1
  }
}
