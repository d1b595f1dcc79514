import { randomBytes } from 'node:crypto'
import { MIN_CHOSEN_LOCAL_PART_LENGTH } from '@tempbox/types'
import { AppError } from '../../errors.js'

/**
 * 32 symbols without the look-alikes 0/o and 1/l, so an address read aloud or off a screen is typed right.
 * 32 = 2^5, so masking a random byte with 31 picks every symbol with equal probability (no modulo bias).
 */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'
/**
 * 12 symbols × 5 bits = 60 bits of entropy: with a million live addresses, guessing one takes on average
 * 2^60 / 10^6 ≈ 10^12 tries — far beyond what the SMTP and HTTP rate limits allow.
 */
export const RANDOM_LOCAL_PART_LENGTH = 12

export function randomLocalPart(length = RANDOM_LOCAL_PART_LENGTH): string {
  const bytes = randomBytes(length)
  let out = ''
  for (const b of bytes) out += ALPHABET[b & 31]
  return out
}

/** Names that mail systems and people expect to reach an administrator; never handed out. */
const RESERVED = new Set([
  'postmaster', 'abuse', 'admin', 'administrator', 'root', 'hostmaster', 'webmaster', 'noreply', 'no-reply',
  'mailer-daemon', 'security', 'support', 'info', 'sysadmin', 'system', 'www', 'ftp', 'usenet', 'news', 'uucp',
  'nobody', 'daemon', 'operator', 'ssl-admin', 'ssladmin', 'ssladministrator', 'sslwebmaster', 'it', 'help',
  'billing', 'privacy', 'legal', 'dmarc', 'bounce', 'bounces', 'tempbox',
])

/** RFC 5321 dot-atom: atext runs separated by single dots, no leading/trailing dot. */
const DOT_ATOM = /^[a-z0-9!#$%&'*+\-/=?^_`{|}~]+(\.[a-z0-9!#$%&'*+\-/=?^_`{|}~]+)*$/
const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/

/**
 * Checks a chosen local part; answers the sentence a person reads. Returns it lower-cased. Anyone who guesses a
 * chosen name reads its mail, so very short names are refused (the web app also suggests adding random characters).
 */
export function validateLocalPart(raw: string): string {
  const local = raw.trim().toLowerCase()
  if (local.length === 0 || local.length > 64) {
    throw new AppError('invalid_address', 'The name must be between 1 and 64 characters long.', { localPart: 'Use 1 to 64 characters.' })
  }
  if (!DOT_ATOM.test(local)) {
    throw new AppError('invalid_address', 'The name may only use letters, digits and . _ - + characters, with no dot at the start, the end or twice in a row.', {
      localPart: 'Use letters, digits and . _ - + only.',
    })
  }
  const bare = local.split('+')[0]!.replace(/[._-]/g, '')
  if (RESERVED.has(local) || RESERVED.has(bare)) {
    throw new AppError('address_reserved', `The name "${local}" is reserved. Please choose another one.`, { localPart: 'This name is reserved.' })
  }
  // After the reserved check, so `admin` still says it is reserved.
  if (local.length < MIN_CHOSEN_LOCAL_PART_LENGTH) {
    throw new AppError(
      'invalid_address',
      `Choose a name of at least ${MIN_CHOSEN_LOCAL_PART_LENGTH} characters: shorter names are easy for others to guess.`,
      { localPart: `Use at least ${MIN_CHOSEN_LOCAL_PART_LENGTH} characters.` },
    )
  }
  return local
}

export interface ParsedAddress {
  address: string
  localPart: string
  domain: string
}

/** Parses `local@domain` from a URL; anything else is a 400 `invalid_address`. */
export function parseAddress(raw: string): ParsedAddress {
  let value = raw
  try {
    value = decodeURIComponent(raw)
  } catch {
    // keep raw: it fails the checks below anyway
  }
  value = value.trim().toLowerCase()
  const at = value.lastIndexOf('@')
  const localPart = at > 0 ? value.slice(0, at) : ''
  const domain = at > 0 ? value.slice(at + 1) : ''
  if (value.length > 254 || localPart.length === 0 || localPart.length > 64 || !DOT_ATOM.test(localPart) || !DOMAIN.test(domain)) {
    throw new AppError('invalid_address', 'That is not a valid email address.')
  }
  return { address: `${localPart}@${domain}`, localPart, domain }
}
