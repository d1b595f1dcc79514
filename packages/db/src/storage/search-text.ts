import type { MessageToStore } from './message-to-store.js'

/**
 * The search copy of a message (table message_search): its subject, sender and text, each Unicode-normalised (NFKC)
 * and lower-cased once, at ingest, and cut at `maxChars` characters. A search folds its terms the same way
 * (foldForSearch) and looks for them with the database's own instr()/strpos(), so no function of ours runs per row.
 */
export interface SearchCopy {
  subject: string
  fromName: string
  fromAddress: string
  /** The text part, else the text rendering of the HTML: what a search's free words and `text` look in. */
  body: string
}

/** Characters of each field a search sees by default (SEARCH_TEXT_MAX_CHARS): beyond them a search finds nothing. */
export const DEFAULT_SEARCH_TEXT_MAX_CHARS = 65_536

/** How a search compares text: compatibility forms unified (ﬁ → fi, full-width → ASCII), then lower case. */
export function foldForSearch(value: string): string {
  return value.normalize('NFKC').toLowerCase()
}

/** At most `maxChars` UTF-16 units of a text, reading only that much of bytes (a unit is at most 3 bytes of UTF-8). */
function headOf(value: string | Buffer, maxChars: number): string {
  return typeof value === 'string' ? value.slice(0, maxChars) : value.subarray(0, maxChars * 3 + 4).toString('utf8').slice(0, maxChars)
}

/** The folded field, at most `maxChars` units (folding may lengthen a text, so it is cut again after). */
function folded(value: string | Buffer | null, maxChars: number): string {
  if (value === null || maxChars <= 0) return ''
  const out = foldForSearch(headOf(value, maxChars))
  if (out.length <= maxChars) return out
  // Never end on the first half of a pair: PostgreSQL refuses such text.
  const last = out.charCodeAt(maxChars - 1)
  return out.slice(0, last >= 0xd800 && last <= 0xdbff ? maxChars - 1 : maxChars)
}

export function searchCopyOf(
  message: { subject: string; fromName: string; fromAddress: string; text: string | Buffer | null; htmlText: string | null },
  maxChars: number,
): SearchCopy {
  return {
    subject: folded(message.subject, maxChars),
    fromName: folded(message.fromName, maxChars),
    fromAddress: folded(message.fromAddress, maxChars),
    body: folded(message.text ?? message.htmlText, maxChars),
  }
}

/** A message's search copy as a writer stores it: mail-ingest's, else folded here at the default cap (tools and tests). */
export function searchCopyFor({ search, parsed, derived }: MessageToStore): SearchCopy {
  return (
    search ??
    searchCopyOf({ subject: parsed.subject, fromName: parsed.from.name, fromAddress: parsed.from.address, text: parsed.text, htmlText: derived.htmlText }, DEFAULT_SEARCH_TEXT_MAX_CHARS)
  )
}
