import { DEFAULT_DERIVE_LIMITS, deriveMessage, type DerivedMessage, type DeriveLimits } from '@tempbox/mail-derive'
import type { ParsedMessage } from './parse-message.js'

/** What is stored of a derivation (its failures are logged, not kept). */
export type StoredDerivation = Omit<DerivedMessage, 'failures'>

/**
 * Derives the message's view in the parse worker, so readers never pay for it. A text read as bytes (the plain-text
 * shortcut) is decoded only as far as the derivation reads it (a multi-byte character cut at the end is harmless). A failed part is logged once, here, and the rest kept.
 */
export function deriveView(parsed: ParsedMessage, limits: DeriveLimits = DEFAULT_DERIVE_LIMITS): StoredDerivation {
  // At most textScanChars bytes: never more characters than the derivation reads.
  const text = Buffer.isBuffer(parsed.text) ? parsed.text.subarray(0, limits.textScanChars).toString('utf8') : parsed.text
  const { failures, ...derived } = deriveMessage(
    { subject: parsed.subject, text, html: parsed.html, contentIds: parsed.attachments.map((a) => a.contentId) },
    limits,
  )
  if (failures.length > 0) console.error(`[smtp] deriving the view of a message failed in part (${parsed.subject.slice(0, 80)}): ${failures.join('; ')}`)
  return derived
}
