import type { FileHandle } from 'node:fs/promises'

/** Bytes read by offset: from a file through `PageCache`, or from a buffer already in memory. */
export interface PageSource {
  /** The bytes when they are at hand without a read (within one cached page), else null: then `bytes`. */
  cached(offset: number, length: number): Buffer | null
  /** `length` bytes from `offset` (fewer at the end), as one buffer. */
  bytes(offset: number, length: number): Promise<Buffer>
}

export async function readFully(file: FileHandle, into: Buffer, position: number): Promise<void> {
  let done = 0
  while (done < into.length) {
    const { bytesRead } = await file.read(into, done, into.length - done, position + done)
    if (bytesRead === 0) throw new Error(`unexpected end of file at ${position + done}`)
    done += bytesRead
  }
}

/** Fixed-size pages of a file, least recently used dropped first; a read in flight is shared. */
export class PageCache implements PageSource {
  private readonly pages = new Map<number, Promise<Buffer>>()
  /** The pages of `pages` whose read has finished, for lookups that need no await. */
  private readonly ready = new Map<number, Buffer>()

  constructor(
    private readonly file: FileHandle,
    private readonly size: number,
    private readonly pageBytes: number,
    private readonly maxPages: number,
  ) {}

  cached(offset: number, length: number): Buffer | null {
    const n = Math.floor(offset / this.pageBytes)
    const start = offset - n * this.pageBytes
    if (start + length > this.pageBytes) return null
    const page = this.ready.get(n)
    if (!page) return null
    // Used again: the last to go.
    const read = this.pages.get(n)!
    this.pages.delete(n)
    this.pages.set(n, read)
    return page.subarray(start, start + length)
  }

  async bytes(offset: number, length: number): Promise<Buffer> {
    const first = Math.floor(offset / this.pageBytes)
    const last = Math.floor((Math.min(offset + length, this.size) - 1) / this.pageBytes)
    const parts = await Promise.all(Array.from({ length: last - first + 1 }, (_, i) => this.page(first + i)))
    const joined = parts.length === 1 ? parts[0]! : Buffer.concat(parts)
    const start = offset - first * this.pageBytes
    return joined.subarray(start, start + length)
  }

  private page(n: number): Promise<Buffer> {
    let page = this.pages.get(n)
    if (page) {
      this.pages.delete(n)
    } else {
      const start = n * this.pageBytes
      const buffer = Buffer.alloc(Math.min(this.pageBytes, this.size - start))
      page = readFully(this.file, buffer, start).then(() => {
        if (this.pages.has(n)) this.ready.set(n, buffer)
        return buffer
      })
      page.catch(() => this.pages.delete(n))
      if (this.pages.size >= this.maxPages) {
        const oldest = this.pages.keys().next().value!
        this.pages.delete(oldest)
        this.ready.delete(oldest)
      }
    }
    this.pages.set(n, page)
    return page
  }
}

/** A whole buffer as a page source: every read is at hand. */
export function memoryPages(buffer: Buffer): PageSource {
  const cached = (offset: number, length: number) => buffer.subarray(offset, offset + length)
  return { cached, bytes: async (offset, length) => cached(offset, length) }
}
