import { open } from 'node:fs/promises'
import { PageCache, readFully, type PageSource } from './page-cache.js'

/**
 * A MaxMind DB (.mmdb) read from its file on demand: the search tree is walked and the one record decoded with
 * positioned reads through a bounded cache of fixed-size pages, so the process holds a few MB, not the whole file
 * (the DB-IP city files are ~130 MB; the kernel's page cache keeps the hot parts). Format:
 * https://maxmind.github.io/MaxMind-DB/
 */
export interface MmdbFile {
  /** The record for an address (4 or 16 bytes, network order), or null where the database has none. */
  get(address: Uint8Array): Promise<unknown>
  close(): Promise<void>
}

const METADATA_MARKER = Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1')
/** The metadata sits in the last 128 KiB (the spec's bound on its size). */
const METADATA_MAX = 128 * 1024
const DATA_SEPARATOR = 16
const MAX_DEPTH = 32
const MAX_KEYS = 256
/** A DB-IP record is a few hundred bytes: more read for one lookup means a damaged file, refused, never a stall. */
const MAX_LOOKUP_BYTES = 256 * 1024

export class MmdbFormatError extends Error {
  constructor(path: string, why: string) {
    super(`${path} is not a readable MaxMind DB file: ${why}`)
  }
}

export async function openMmdbFile(path: string, options: { pageBytes?: number; cachePages?: number } = {}): Promise<MmdbFile> {
  const file = await open(path, 'r')
  try {
    const { size } = await file.stat()
    const tailStart = Math.max(0, size - METADATA_MAX)
    const tail = Buffer.alloc(size - tailStart)
    await readFully(file, tail, tailStart)
    const at = tail.lastIndexOf(METADATA_MARKER)
    if (at < 0) throw new MmdbFormatError(path, 'no metadata marker')
    const decoded = new Decoder(tail, path).value(at + METADATA_MARKER.length).value
    if (!(decoded instanceof MapEntries)) throw new MmdbFormatError(path, 'the metadata is not a map')
    const meta = Object.fromEntries(decoded.entries.filter(([k]) => typeof k === 'string'))
    const nodeCount = Number(meta.node_count)
    const recordSize = Number(meta.record_size)
    if (![24, 28, 32].includes(recordSize) || !(nodeCount > 0)) throw new MmdbFormatError(path, `record size ${recordSize}, ${nodeCount} nodes`)
    const treeBytes = (nodeCount * recordSize * 2) / 8
    if (treeBytes + DATA_SEPARATOR > tailStart + at) throw new MmdbFormatError(path, 'the search tree runs past the data')
    const pages = new PageCache(file, size, options.pageBytes ?? 4096, options.cachePages ?? 1024)
    const reader = new TreeReader(pages, nodeCount, recordSize, Number(meta.ip_version), treeBytes + DATA_SEPARATOR, path)
    return { get: (address) => reader.get(address), close: () => file.close() }
  } catch (err) {
    await file.close()
    throw err
  }
}

class TreeReader {
  private readonly nodeBytes: number
  private ipv4Start: number | null = null
  private readonly keys = new Map<number, string>()

  constructor(
    private readonly pages: PageSource,
    private readonly nodeCount: number,
    private readonly recordSize: number,
    private readonly ipVersion: number,
    private readonly dataStart: number,
    private readonly path: string,
  ) {
    this.nodeBytes = (recordSize * 2) / 8
  }

  async get(address: Uint8Array): Promise<unknown> {
    const bits = address.length * 8
    if (bits === 128 && this.ipVersion !== 6) return null
    let node = bits === 32 && this.ipVersion === 6 ? await this.ipv4Root() : 0
    for (let i = 0; i < bits && node < this.nodeCount; i++) {
      const next = this.record(node, (address[i >> 3]! >> (7 - (i & 7))) & 1)
      node = typeof next === 'number' ? next : await next
    }
    if (node === this.nodeCount) return null
    if (node < this.nodeCount) throw new MmdbFormatError(this.path, 'the search tree is deeper than the address')
    return this.decodeAt(node - this.nodeCount - DATA_SEPARATOR, 0, { bytes: MAX_LOOKUP_BYTES })
  }

  /** IPv4 addresses in an IPv6 tree live under 96 zero bits (::a.b.c.d). */
  private async ipv4Root(): Promise<number> {
    if (this.ipv4Start === null) {
      let node = 0
      for (let i = 0; i < 96 && node < this.nodeCount; i++) node = await this.record(node, 0)
      this.ipv4Start = node
    }
    return this.ipv4Start
  }

  private record(node: number, right: number): number | Promise<number> {
    const offset = node * this.nodeBytes
    const b = this.pages.cached(offset, this.nodeBytes)
    return b ? this.side(b, right) : this.pages.bytes(offset, this.nodeBytes).then((read) => this.side(read, right))
  }

  private side(b: Buffer, right: number): number {
    switch (this.recordSize) {
      case 24:
        return right ? b.readUIntBE(3, 3) : b.readUIntBE(0, 3)
      case 28:
        return right ? ((b[3]! & 0x0f) * 2 ** 24) + b.readUIntBE(4, 3) : ((b[3]! >> 4) * 2 ** 24) + b.readUIntBE(0, 3)
      default:
        return right ? b.readUInt32BE(4) : b.readUInt32BE(0)
    }
  }

  /** Decodes the value at a data-section offset, following pointers with further reads. */
  private async decodeAt(offset: number, depth: number, budget: { bytes: number }): Promise<unknown> {
    if (depth > MAX_DEPTH) throw new MmdbFormatError(this.path, 'data nested too deep')
    // A DB-IP record is a few hundred bytes; a longer one is read again whole once its size is known.
    let span = 512
    for (;;) {
      budget.bytes -= span
      if (budget.bytes < 0) throw new MmdbFormatError(this.path, `a record takes more than ${MAX_LOOKUP_BYTES} bytes`)
      const bytes = this.pages.cached(this.dataStart + offset, span) ?? (await this.pages.bytes(this.dataStart + offset, span))
      let decoded
      try {
        decoded = new Decoder(bytes, this.path).value(0)
      } catch (err) {
        if (!(err instanceof ShortRead)) throw err
        if (bytes.length < span) throw new MmdbFormatError(this.path, 'a record runs past the end')
        span = Math.max(span * 2, err.needed)
        continue
      }
      return this.resolve(decoded.value, depth, budget)
    }
  }

  private async resolve(value: unknown, depth: number, budget: { bytes: number }): Promise<unknown> {
    if (value instanceof Pointer) return this.decodeAt(value.offset, depth + 1, budget)
    if (Array.isArray(value)) {
      const out = []
      for (const v of value) out.push(await this.resolve(v, depth + 1, budget))
      return out
    }
    if (value instanceof MapEntries) {
      const out: Record<string, unknown> = {}
      for (const [k, v] of value.entries) {
        const key = k instanceof Pointer ? await this.key(k.offset, budget) : k
        if (typeof key !== 'string') throw new MmdbFormatError(this.path, 'a map key is not a string')
        out[key] = await this.resolve(v, depth + 1, budget)
      }
      return out
    }
    return value
  }

  /** Map keys are shared strings that most records point to: remembered (a bounded few). */
  private async key(offset: number, budget: { bytes: number }): Promise<unknown> {
    const known = this.keys.get(offset)
    if (known !== undefined) return known
    const key = await this.decodeAt(offset, MAX_DEPTH, budget)
    if (typeof key === 'string' && this.keys.size < MAX_KEYS) this.keys.set(offset, key)
    return key
  }
}

/** A data-section offset still to read. */
class Pointer {
  constructor(readonly offset: number) {}
}

/** A map as decoded: keys and values may still be pointers. */
class MapEntries {
  constructor(readonly entries: [unknown, unknown][]) {}
}

class ShortRead extends Error {
  constructor(readonly needed: number) {
    super('short read')
  }
}

/** Decodes the data-section encoding from bytes in memory; pointers come back as `Pointer`s. */
class Decoder {
  constructor(
    private readonly b: Buffer,
    private readonly path: string,
  ) {}

  value(at: number, depth = 0): { value: unknown; next: number } {
    if (depth > MAX_DEPTH) throw new MmdbFormatError(this.path, 'data nested too deep')
    const need = (n: number) => {
      if (at + n > this.b.length) throw new ShortRead(at + n)
    }
    need(1)
    const control = this.b[at++]!
    let type = control >> 5
    if (type === 1) {
      const ss = (control >> 3) & 3
      const v = control & 7
      need(ss + 1)
      const raw = this.b.readUIntBE(at, ss + 1)
      const offset = ss === 0 ? v * 256 + raw : ss === 1 ? v * 65536 + raw + 2048 : ss === 2 ? v * 16777216 + raw + 526336 : raw
      return { value: new Pointer(offset), next: at + ss + 1 }
    }
    if (type === 0) {
      need(1)
      type = 7 + this.b[at++]!
    }
    let size = control & 0x1f
    if (size >= 29) {
      const extra = size - 28
      need(extra)
      const raw = this.b.readUIntBE(at, extra)
      size = extra === 1 ? 29 + raw : extra === 2 ? 285 + raw : 65821 + raw
      at += extra
    }
    switch (type) {
      case 2:
        need(size)
        return { value: this.b.toString('utf8', at, at + size), next: at + size }
      case 3:
        need(8)
        return { value: this.b.readDoubleBE(at), next: at + 8 }
      case 4:
        need(size)
        return { value: this.b.subarray(at, at + size), next: at + size }
      case 5:
      case 6:
      case 8:
      case 9:
      case 10:
        need(size)
        return { value: size === 0 ? 0 : size <= 6 ? this.b.readUIntBE(at, size) : this.bigUint(at, size), next: at + size }
      case 7: {
        const entries: [unknown, unknown][] = []
        for (let i = 0; i < size; i++) {
          const key = this.value(at, depth + 1)
          const value = this.value(key.next, depth + 1)
          entries.push([key.value, value.value])
          at = value.next
        }
        return { value: new MapEntries(entries), next: at }
      }
      case 11: {
        const list: unknown[] = []
        for (let i = 0; i < size; i++) {
          const item = this.value(at, depth + 1)
          list.push(item.value)
          at = item.next
        }
        return { value: list, next: at }
      }
      case 14:
        return { value: size !== 0, next: at }
      case 15:
        need(4)
        return { value: this.b.readFloatBE(at), next: at + 4 }
      default:
        throw new MmdbFormatError(this.path, `unknown data type ${type}`)
    }
  }

  private bigUint(at: number, size: number): bigint {
    let v = 0n
    for (let i = 0; i < size; i++) v = (v << 8n) | BigInt(this.b[at + i]!)
    return v
  }
}
