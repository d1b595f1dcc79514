import { authenticate, type AuthenticateResult, type DNSResolver } from 'mailauth'
import { DEFAULT_MAX_HEADER_BYTES } from './config.js'
import { headerBlockEnd } from './header-block.js'

/** What the SMTP session saw, as SPF needs it: the client's address, its HELO/EHLO name and the MAIL FROM address. */
export interface SmtpEnvelope {
  ip: string
  helo: string
  mailFrom: string
}

export type AuthStatus = 'pass' | 'fail' | 'none' | 'unknown'

/** Stored as `message_auth.details` (JSON); the API turns it into `MessageAuth` (@tempbox/types). */
export interface StoredMessageAuthDetails {
  fromDomain: string | null
  spf: { result: string; domain: string } | null
  dkim: { result: string; domain: string; selector: string | null; aligned: boolean }[]
  dmarc: { result: string; domain: string; policy: string | null } | null
  arc: { result: string } | null
}

export interface AuthVerdict {
  status: AuthStatus
  details: StoredMessageAuthDetails | null
  authenticationResults: string | null
}

/** The verdict when the check did not run (queue full, shutting down) or threw: nothing is known either way. */
export const UNKNOWN: AuthVerdict = { status: 'unknown', details: null, authenticationResults: null }

/** DKIM verdicts carry at most this many signatures into storage: a message may carry any number of them. */
const MAX_STORED_SIGNATURES = 10

/**
 * SPF, DKIM, DMARC and ARC for one received message. BIMI is off: it is about logos, and would fetch certificates
 * over HTTPS. `mta` is the name written into Authentication-Results (our first mail domain).
 */
export async function checkMessage(
  raw: Buffer,
  envelope: SmtpEnvelope,
  options: { resolver: DNSResolver; mta: string; maxHeaderBytes?: number },
): Promise<AuthVerdict> {
  // mailauth parses every header line (addresses, DKIM tags) at ~1.4 µs a byte: a header block past the limit is not
  // checked at all, rather than holding the check's thread for seconds.
  const headEnd = headerBlockEnd(raw)
  if ((headEnd < 0 ? raw.length : headEnd) > (options.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES)) return UNKNOWN
  const result = await authenticate(raw, {
    ip: envelope.ip,
    helo: envelope.helo,
    sender: envelope.mailFrom,
    mta: options.mta,
    resolver: options.resolver,
    disableBimi: true,
  })
  const details = detailsOf(result)
  return { status: statusOf(details), details, authenticationResults: withoutClientAddress(authenticationResultsOf(result.headers), envelope.ip) }
}

/**
 * The reader's question is "is this really from the domain in From?". DMARC answers it when the domain publishes a
 * record; without one, a verifying DKIM signature of the From domain (aligned) still proves it. A DNS failure on the
 * way means we cannot tell (unknown), not that the mail is bad.
 */
export function statusOf(details: StoredMessageAuthDetails): AuthStatus {
  const dmarc = details.dmarc?.result
  if (dmarc === 'pass') return 'pass'
  if (dmarc === 'fail') return 'fail'
  if (dmarc === 'temperror') return 'unknown'
  if (details.dkim.some((d) => d.result === 'pass' && d.aligned)) return 'pass'
  const results = [details.spf?.result, ...details.dkim.map((d) => d.result)]
  if (results.includes('temperror')) return 'unknown'
  return 'none'
}

function detailsOf(result: AuthenticateResult): StoredMessageAuthDetails {
  const fromAddress = result.dkim.headerFrom[0] ?? ''
  const at = fromAddress.lastIndexOf('@')
  const dmarc = result.dmarc
  return {
    fromDomain: at >= 0 ? fromAddress.slice(at + 1).toLowerCase() : null,
    spf: result.spf ? { result: result.spf.status.result, domain: result.spf.domain } : null,
    // An unsigned message gets one result without a signing domain: that is "no signature", not a signature.
    dkim: result.dkim.results.filter((d) => d.signingDomain).slice(0, MAX_STORED_SIGNATURES).map((d) => ({
      result: d.status.result,
      domain: d.signingDomain ?? '',
      selector: d.selector ?? null,
      // mailauth gives the aligned domain (a string) or false.
      aligned: Boolean(d.status.aligned),
    })),
    dmarc: dmarc && dmarc.status ? { result: dmarc.status.result, domain: dmarc.domain ?? dmarc.status.header?.from ?? '', policy: dmarc.p ?? null } : null,
    // No ARC chain at all is mailauth's `none`: only a chain present says something.
    arc: result.arc && result.arc.status.result !== 'none' ? { result: result.arc.status.result } : null,
  }
}

const AUTHENTICATION_RESULTS = 'Authentication-Results:'
const WITHHELD = 'client-address-withheld'
/** An address literal as a HELO gives it: `[192.0.2.1]`, `[IPv6:2001:db8::1]`. */
const ADDRESS_LITERAL = /\[(?:IPv6:[0-9A-Fa-f:.]{2,45}|\d{1,3}(?:\.\d{1,3}){3})\]/g

/**
 * The stored header keeps the verdicts but not the sender's address: mailauth names it in SPF's comment and a client
 * often HELOs with its address literal, and we store no client IP with the mail (the privacy promise).
 */
export function withoutClientAddress(value: string | null, ip: string): string | null {
  if (value === null) return null
  const plain = ip.startsWith('::ffff:') ? ip.slice(7) : ip
  let out = value.replace(ADDRESS_LITERAL, `[${WITHHELD}]`)
  for (const form of new Set([ip, plain])) if (form) out = out.split(form).join(WITHHELD)
  return out
}

/** The Authentication-Results value out of mailauth's header block (which also holds Received-SPF), unfolded lines kept. */
export function authenticationResultsOf(headers: string): string | null {
  const start = headers.indexOf(AUTHENTICATION_RESULTS)
  if (start < 0) return null
  const lines = headers.slice(start + AUTHENTICATION_RESULTS.length).split('\r\n')
  const value = [lines[0]!]
  for (const line of lines.slice(1)) {
    if (!line.startsWith(' ') && !line.startsWith('\t')) break
    value.push(line)
  }
  return value.join('\r\n').trim()
}
