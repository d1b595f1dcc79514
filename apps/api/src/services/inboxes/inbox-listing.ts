import { createHash } from 'node:crypto'
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib'

/** Below this size compression saves less than its headers cost. */
const COMPRESS_MIN_BYTES = 1024
/** What a cached listing costs beyond its bytes (map entry, objects, Buffer headers), so empty inboxes count too. */
const ENTRY_OVERHEAD_BYTES = 512

/** One page of an inbox as JSON, with its validator; gzip and brotli forms are computed once, on first demand. */
export class Listing {
  readonly json: Buffer
  /** Weak: the same JSON goes out identity, gzip or brotli encoded, and any of them may revalidate the others. */
  readonly etag: string
  private gzipped?: Buffer
  private brotli?: Buffer

  constructor(json: string) {
    this.json = Buffer.from(json)
    this.etag = `W/"${createHash('sha1').update(this.json).digest('base64url')}"`
  }

  /** Bytes held, for the cache's budget. */
  get bytes(): number {
    return ENTRY_OVERHEAD_BYTES + this.json.length + (this.gzipped?.length ?? 0) + (this.brotli?.length ?? 0)
  }

  /** The body and its Content-Encoding (null: identity) for an Accept-Encoding header. */
  encode(acceptEncoding: string | undefined): { body: Buffer; encoding: 'br' | 'gzip' | null } {
    if (!acceptEncoding || this.json.length < COMPRESS_MIN_BYTES) return { body: this.json, encoding: null }
    if (/\bbr\b/.test(acceptEncoding)) {
      this.brotli ??= brotliCompressSync(this.json, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
      return { body: this.brotli, encoding: 'br' }
    }
    if (/\bgzip\b/.test(acceptEncoding)) {
      this.gzipped ??= gzipSync(this.json, { level: 6 })
      return { body: this.gzipped, encoding: 'gzip' }
    }
    return { body: this.json, encoding: null }
  }

  /** True when an If-None-Match header names this listing (weak comparison, as RFC 9110 asks for GET). */
  matches(ifNoneMatch: string | undefined): boolean {
    if (!ifNoneMatch) return false
    const tag = this.etag.slice(2)
    return ifNoneMatch.split(',').some((t) => {
      const v = t.trim()
      return v === '*' || v === this.etag || v === tag
    })
  }
}

/**
 * First pages of inboxes, least recently read dropped first, within a budget of bytes (a listing's compressed forms
 * count once they exist). Only first pages are kept: they are what the 10-second polls ask for, and each is at most
 * one default-sized page, so the budget bounds the cache however large the inboxes grow.
 */
export class ListingCache {
  private readonly entries = new Map<number, { listing: Listing; bytes: number }>()
  private total = 0

  constructor(private readonly maxBytes: number) {}

  get(inboxId: number): Listing | undefined {
    const entry = this.entries.get(inboxId)
    if (!entry) return undefined
    // Re-inserting moves it to the end: Map order is the recency order. Encodings made since the last read count now.
    this.entries.delete(inboxId)
    this.total += entry.listing.bytes - entry.bytes
    entry.bytes = entry.listing.bytes
    this.entries.set(inboxId, entry)
    this.evict()
    return entry.listing
  }

  set(inboxId: number, listing: Listing): void {
    this.delete(inboxId)
    if (listing.bytes > this.maxBytes) return
    this.entries.set(inboxId, { listing, bytes: listing.bytes })
    this.total += listing.bytes
    this.evict()
  }

  delete(inboxId: number): void {
    const entry = this.entries.get(inboxId)
    if (!entry) return
    this.entries.delete(inboxId)
    this.total -= entry.bytes
  }

  clear(): void {
    this.entries.clear()
    this.total = 0
  }

  get size(): number {
    return this.entries.size
  }

  get heldBytes(): number {
    return this.total
  }

  private evict(): void {
    while (this.total > this.maxBytes) {
      const oldest = this.entries.keys().next()
      if (oldest.done) return
      this.delete(oldest.value)
    }
  }
}
