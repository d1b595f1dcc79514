import { DEFAULT_DERIVE_LIMITS, deriveParsed, type DerivedMessage, type DeriveLimits } from '@tempbox/mail-derive'
import { searchCopyOf, type SearchCopy } from '@tempbox/db/search-text'
import type { ParsedMessage } from './parse-message.js'

/** What is stored of a derivation (its failures are logged, not kept). */
export type StoredDerivation = Omit<DerivedMessage, 'failures'>

/** Derives the message's view in the parse worker, so readers never pay for it. A failed part is logged once, here, and the rest kept. */
export function deriveView(parsed: ParsedMessage, limits: DeriveLimits = DEFAULT_DERIVE_LIMITS): StoredDerivation {
  const { failures, ...derived } = deriveParsed(parsed, limits)
  if (failures.length > 0) console.error(`[smtp] deriving the view of a message failed in part (${parsed.subject.slice(0, 80)}): ${failures.join('; ')}`)
  return derived
}

/** The message's search copy (SEARCH_TEXT_MAX_CHARS per field), folded here in the parse worker rather than by the one store worker. */
export function deriveSearchCopy(parsed: ParsedMessage, derived: StoredDerivation, maxChars: number): SearchCopy {
  return searchCopyOf({ subject: parsed.subject, fromName: parsed.from.name, fromAddress: parsed.from.address, text: parsed.text, htmlText: derived.htmlText }, maxChars)
}
