import type { Env, IntReader } from '@tempbox/config'

/** How the sender check (SPF, DKIM, DMARC, ARC) runs; see README "Who really sent it". */
export interface MailAuthConfig {
  /** MAIL_AUTH=off stores no verdict (the API then says the message was not checked). */
  enabled: boolean
  /** One try per DNS query, no longer than this. */
  dnsTimeoutMs: number
  /** DNS answers kept (least recently used dropped first), and for how long. */
  dnsCacheEntries: number
  dnsCacheTtlMs: number
  /** Checks at once; each mostly waits on DNS. */
  concurrency: number
  /** Messages (and their bytes) waiting for a check; beyond either, a message is marked unknown at once. */
  maxQueued: number
  maxQueuedBytes: number
  /** A check not finished by then is stored as unknown. */
  timeoutMs: number
  /** A header block larger than this is not checked (unknown): the check parses headers at ~1.4 µs a byte. */
  maxHeaderBytes: number
  /** A JSON DNS zone answering instead of the network (tests, offline stacks); refused when NODE_ENV=production. */
  dnsFixturePath: string | null
}

/** Far over real header blocks (a ten-hop ARC chain is ~30 KB), and a ~0.1 s check at worst. */
export const DEFAULT_MAX_HEADER_BYTES = 64 * 1024

export function loadMailAuthConfig(env: Env, int: IntReader, problems: string[]): MailAuthConfig {
  const switchValue = (env.MAIL_AUTH ?? 'on').toLowerCase()
  if (!['on', 'off'].includes(switchValue)) problems.push(`MAIL_AUTH must be "on" or "off" (got "${env.MAIL_AUTH}")`)
  const dnsFixturePath = env.MAIL_AUTH_DNS_FIXTURE || null
  // A fixture answers whatever it is told: in production it would let anyone who can write one file forge "Verified".
  if (dnsFixturePath && env.NODE_ENV === 'production') problems.push('MAIL_AUTH_DNS_FIXTURE is for tests and is refused when NODE_ENV=production')
  return {
    enabled: switchValue !== 'off',
    dnsTimeoutMs: int('MAIL_AUTH_DNS_TIMEOUT_MS', 2_000, 100),
    dnsCacheEntries: int('MAIL_AUTH_DNS_CACHE_ENTRIES', 10_000, 0),
    dnsCacheTtlMs: int('MAIL_AUTH_DNS_CACHE_TTL_MS', 5 * 60_000, 0),
    concurrency: int('MAIL_AUTH_CONCURRENCY', 16, 1),
    maxQueued: int('MAIL_AUTH_MAX_QUEUED', 5_000, 0),
    maxQueuedBytes: int('MAIL_AUTH_MAX_QUEUED_BYTES', 64 * 1024 * 1024, 0),
    timeoutMs: int('MAIL_AUTH_TIMEOUT_MS', 15_000, 100),
    maxHeaderBytes: int('MAIL_AUTH_MAX_HEADER_BYTES', DEFAULT_MAX_HEADER_BYTES, 1024),
    dnsFixturePath,
  }
}
