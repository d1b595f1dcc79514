import { deriveMessage, type DerivedMessage } from './derive.js'
import { DEFAULT_DERIVE_LIMITS, type DeriveLimits } from './limits.js'

/** A message as a parser hands it over: its text may still be the body's bytes (ingest's plain-text shortcut). */
export interface ParsedForView {
  subject: string
  text: string | Buffer | null
  html: string | null
  attachments: readonly { contentId: string | null }[]
}

/**
 * The derivation of a parsed message. A text given as bytes is decoded only as far as the derivation reads it
 * (a multi-byte character cut at the end is harmless), so a 10 MB body costs no 10 MB string.
 */
export function deriveParsed(parsed: ParsedForView, limits: DeriveLimits = DEFAULT_DERIVE_LIMITS): DerivedMessage {
  const text = Buffer.isBuffer(parsed.text) ? parsed.text.subarray(0, limits.textScanChars).toString('utf8') : parsed.text
  return deriveMessage(
    { subject: parsed.subject, text, html: parsed.html, contentIds: parsed.attachments.map((a) => a.contentId) },
    limits,
  )
}
