import { createHash } from 'node:crypto'
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib'
import { ByteBudgetCache } from './byte-budget-cache.js'

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
    // What a browser sends back: the tag alone, as given.
    if (ifNoneMatch === this.etag) return true
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
export class ListingCache extends ByteBudgetCache<number, Listing> {
  constructor(maxBytes: number) {
    super(maxBytes, (listing) => listing.bytes)
  }
}
