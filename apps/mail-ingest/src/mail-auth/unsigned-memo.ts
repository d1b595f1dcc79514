import type { AuthVerdict, SmtpEnvelope } from './check.js'
import { headerBlockEnd, signsBody } from './header-block.js'

type Check = (raw: Buffer, envelope: SmtpEnvelope) => Promise<AuthVerdict>

export interface UnsignedMemoOptions {
  /** Verdicts kept (the oldest dropped first); 0 turns the memo off. */
  maxEntries: number
  /** How long a verdict is reused: no longer than the DNS answers it was made from are cached. */
  ttlMs: number
  now?: () => number
}

/**
 * Reuses the verdict of an unsigned message for the next ones with the same envelope and From header. Without a DKIM
 * signature or an ARC set (the job then holds the header block alone, see authSourceOf), SPF judges the envelope,
 * DKIM has nothing to verify and DMARC reads the From domain: the verdict is a function of the client's address, HELO,
 * MAIL FROM, the From field and DNS, so a sender that mails us in bursts is checked once per `ttlMs` instead of once
 * per message (mailauth's header parse, SPF and DMARC evaluation cost more CPU than storing the message). Checks of
 * the same key running at once share one. A verdict that is `unknown` (DNS failed, say) is never reused.
 */
export function memoizeUnsigned(check: Check, options: UnsignedMemoOptions): Check {
  if (options.maxEntries <= 0 || options.ttlMs <= 0) return check
  const now = options.now ?? Date.now
  const entries = new Map<string, { verdict: Promise<AuthVerdict>; at: number }>()
  return (raw, envelope) => {
    const key = unsignedKey(raw, envelope)
    if (key === null) return check(raw, envelope)
    const at = now()
    const hit = entries.get(key)
    if (hit && at - hit.at < options.ttlMs) return hit.verdict
    const verdict = check(raw, envelope)
    const entry = { verdict, at }
    entries.delete(key)
    if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!)
    entries.set(key, entry)
    const forget = () => {
      if (entries.get(key) === entry) entries.delete(key)
    }
    verdict.then((v) => v.status === 'unknown' && forget(), forget)
    return verdict
  }
}

/**
 * What an unsigned message's verdict depends on, or null when the bytes may carry a signature (or hold no complete
 * header block). The From field is taken as its raw lines, folded ones included: two messages share a key only when
 * mailauth reads the very same field.
 */
export function unsignedKey(raw: Buffer, envelope: SmtpEnvelope): string | null {
  const end = headerBlockEnd(raw)
  if (end < 0) return null
  const head = raw.toString('latin1', 0, end)
  if (signsBody(head)) return null
  return JSON.stringify([envelope.ip, envelope.helo, envelope.mailFrom, fromLines(head)])
}

/** Every From field of the header block with its continuation lines, in order (one pass over the block). */
function fromLines(head: string): string[] {
  const lines = head.split('\n')
  const from: string[] = []
  let inFrom = false
  for (const line of lines) {
    if (line.startsWith(' ') || line.startsWith('\t')) {
      if (inFrom) from.push(line)
      continue
    }
    inFrom = /^from\s*:/i.test(line)
    if (inFrom) from.push(line)
  }
  return from
}
