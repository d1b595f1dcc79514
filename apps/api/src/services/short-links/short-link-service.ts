import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import type { Db, ShortLinkRow } from '@tempbox/db'
import { SHORT_CODE_LENGTH, SHORT_CODE_PATTERN, type CreatedShortLink, type LookupLinksBody, type ShortLink } from '@tempbox/types'
import { AppError } from '../../errors.js'
import { countClick, findLinksByCodes, insertLink } from '../../repositories/link-repository.js'

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
/** 62^8 ≈ 2.2 × 10^14 codes: a clash is rare, a few retries make it practically impossible. */
const MAX_CODE_ATTEMPTS = 5

/** Where short links live, e.g. `https://tempbox.example` → `https://tempbox.example/s/Ab12Cd`. */
export interface ShortHost {
  origin: string
  host: string
}

export function generateCode(): string {
  let code = ''
  for (let i = 0; i < SHORT_CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]
  return code
}

/**
 * The rules of spec §5 plus ours: an absolute http(s) URL, and never one of our own short links
 * (a link to a link could loop forever).
 */
export function validateTarget(raw: string, shortHost: ShortHost): URL {
  const text = raw.trim()
  if (!text) throw new AppError('invalid_url', 'Please enter a URL to shorten', { url: 'Please enter a URL to shorten' })
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw invalidUrl()
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw invalidUrl()
  if (url.host.toLowerCase() === shortHost.host.toLowerCase() && /^\/s(\/|$)/.test(url.pathname)) {
    throw new AppError('invalid_url', 'This is already a short link from this site; shorten the original address instead.', {
      url: 'Short links cannot point to other short links.',
    })
  }
  return url
}

function invalidUrl(): AppError {
  const message = 'Please enter a valid URL (include http:// or https://)'
  return new AppError('invalid_url', message, { url: message })
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** A new link and the secret that alone shows its clicks and target again (only its hash is stored). */
export async function createLink(db: Db, raw: string, shortHost: ShortHost, now = Date.now()): Promise<CreatedShortLink> {
  const target = validateTarget(raw, shortHost)
  const secret = randomBytes(24).toString('base64url')
  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
    const row = await insertLink(db, { code: generateCode(), targetUrl: target.href, createdAt: now, secretHash: hashSecret(secret) })
    if (row) return { ...toShortLink(row, shortHost), secret }
  }
  throw new AppError('internal', 'Could not create a short link. Please try again.')
}

/**
 * The visitor's own links, newest first: only those whose secret matches, so knowing or guessing a code shows
 * nothing. Unknown codes and wrong secrets are left out alike.
 */
export async function lookupLinks(db: Db, wanted: LookupLinksBody['links'], shortHost: ShortHost): Promise<ShortLink[]> {
  const secretOf = new Map<string, string>()
  for (const { code, secret } of wanted) if (SHORT_CODE_PATTERN.test(code)) secretOf.set(code, hashSecret(secret))
  const rows = await findLinksByCodes(db, [...secretOf.keys()])
  return rows.filter((row) => row.secret_hash !== null && sameHash(row.secret_hash, secretOf.get(row.code)!)).map((row) => toShortLink(row, shortHost))
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))
}

/** Target of a short code with its click counted, or null for a code that does not exist. */
export async function followLink(db: Db, code: string): Promise<string | null> {
  if (!SHORT_CODE_PATTERN.test(code)) return null
  return countClick(db, code)
}

function toShortLink(row: ShortLinkRow, shortHost: ShortHost): ShortLink {
  return {
    code: row.code,
    original: row.target_url,
    shortened: `${shortHost.origin}/s/${row.code}`,
    clicks: row.clicks,
    createdAt: new Date(row.created_at).toISOString(),
  }
}
