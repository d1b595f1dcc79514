import { PREVIEW_CHARS } from '@tempbox/types/constants'

/** Number of body characters the inbox preview shows (spec §2): the server's preview length. */
export const PREVIEW_LENGTH = PREVIEW_CHARS

/**
 * The first 100 characters of the body, whitespace runs collapsed to one space, followed by an ellipsis only when text
 * was cut ("It works" stays as it is). The server's preview holds at most 100 characters, so one that long is taken as
 * cut. Null for a body with no text at all, which the list says in words rather than as a lone "…".
 */
export function messagePreview(content: string): string | null {
  const flat = content.slice(0, 4096).replace(/\s+/g, ' ').trim()
  if (!flat) return null
  return flat.length < PREVIEW_LENGTH ? flat : `${flat.slice(0, PREVIEW_LENGTH)}…`
}

export type RelativeUnit = 's' | 'm' | 'h' | 'd'

/** Elapsed time in the largest whole unit of s, m, h or d; future dates count as 0 s (clock skew). */
export function relativeTime(date: Date | string | number, now: number = Date.now()): { value: number; unit: RelativeUnit } {
  const then = date instanceof Date ? date.getTime() : typeof date === 'number' ? date : Date.parse(date)
  const seconds = Math.max(0, Math.floor((now - then) / 1000))
  if (seconds < 60) return { value: seconds, unit: 's' }
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return { value: minutes, unit: 'm' }
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return { value: hours, unit: 'h' }
  return { value: Math.floor(hours / 24), unit: 'd' }
}

/** "23:59:07" style countdown to the expiry; "00:00:00" once passed. */
export function countdown(expiresAt: number, now: number = Date.now()): string {
  const total = Math.max(0, Math.floor((expiresAt - now) / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':')
}

/**
 * Splits "Name <address>" into its parts; a bare address has no name. The name may be quoted and holds no other quote;
 * the address runs from the first `<` to the `>` that ends the string. Found with indexOf and trim, not a pattern: the
 * pattern this replaces (/^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/) backtracked cubically over a sender of blanks that does
 * not end in an address, so a mail with 2,000 of them froze the inbox for a second at every render.
 */
export function parseSender(sender: string): { name: string | null; address: string } {
  const bare = { name: null, address: sender.trim() }
  const end = sender.trimEnd()
  const open = end.indexOf('<')
  if (open < 0 || !end.endsWith('>')) return bare
  const address = end.slice(open + 1, -1)
  if (address === '' || address.includes('>')) return bare
  let name = end.slice(0, open).trim()
  if (name.startsWith('"')) name = name.slice(1)
  if (name.endsWith('"')) name = name.slice(0, -1)
  if (name.includes('"')) return bare
  return { name: name || null, address }
}
