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

/** Parses both files (~515k rows, a second or so); the files are sorted by start and ranges do not overlap. */
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
