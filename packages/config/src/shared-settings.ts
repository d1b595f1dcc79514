import type { Env, IntReader } from './env-readers.js'

/** Works locally: any SMTP client can address it directly at our server. */
export const DEFAULT_MAIL_DOMAINS: readonly string[] = ['tempbox.local']

/** One default for both: ingest stores a long text's head at the length the api's view cuts it. */
export const DEFAULT_MESSAGE_TEXT_MAX_CHARS = 256 * 1024

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/

/** MAIL_DOMAINS: the domains mail is taken for, lower-cased; mail-ingest refuses any other, the api issues the first. */
export function readMailDomains(env: Env, problems: string[]): readonly string[] {
  const raw = env.MAIL_DOMAINS
  if (!raw || raw.trim() === '') return DEFAULT_MAIL_DOMAINS
  const domains = raw.split(',').map((d) => d.trim().toLowerCase()).filter(Boolean)
  for (const d of domains) if (!DOMAIN.test(d)) problems.push(`MAIL_DOMAINS has an invalid domain "${d}"`)
  return domains
}

/** MESSAGE_TEXT_MAX_CHARS: the text a message view shows; mail-ingest stores a longer text's head at this length. */
export function readMessageTextMaxChars(int: IntReader): number {
  return int('MESSAGE_TEXT_MAX_CHARS', DEFAULT_MESSAGE_TEXT_MAX_CHARS, 1)
}
