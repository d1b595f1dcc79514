import { readFile } from 'node:fs/promises'

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

export async function loadAsnTable(v4CsvPath: string, v6CsvPath: string): Promise<AsnTable> {
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
