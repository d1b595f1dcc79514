import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { parseIp, specialPurpose } from '@tempbox/ip'

/** Why a webhook URL or the address it resolves to is refused, in a sentence for the person who set it. */
export class TargetRefused extends Error {
  constructor(
    message: string,
    readonly code: 'invalid_webhook_url' | 'webhook_target_refused',
  ) {
    super(message)
    this.name = 'TargetRefused'
  }
}

export interface TargetPolicy {
  allowHttp: boolean
  allowPrivate: boolean
}

/**
 * Why a webhook may not reach this address unless the operator allows private targets, in words for the error
 * sentence; null for a public one. Every IANA special-purpose range counts (loopback, private, link-local where cloud
 * metadata answers, documentation, reserved, multicast …), and an IPv4 address carried in IPv6 counts as itself.
 */
export function whyNotPublic(address: string): string | null {
  const ip = parseIp(address)
  if (!ip) return `${address} is not an IP address`
  const found = specialPurpose(ip)
  if (!found) return null
  const what = `${found.name} (${found.range})`
  return found.carrier ? `${ip.ip} is ${found.carrier.name} for ${found.carrier.ipv4}: ${what}` : `${ip.ip} is ${what}`
}

export function isPublicAddress(address: string): boolean {
  return whyNotPublic(address) === null
}

/** Checks the URL itself (scheme, no credentials); returns it normalized. */
export function parseWebhookUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new TargetRefused('This is not a URL. Give a full address such as https://example.com/hooks/tempbox.', 'invalid_webhook_url')
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw new TargetRefused(
      policy.allowHttp ? 'Webhook URLs must start with https:// or http://.' : 'Webhook URLs must use https:// (plain http is not allowed on this server).',
      'invalid_webhook_url',
    )
  }
  if (url.username || url.password) {
    throw new TargetRefused('Webhook URLs must not contain a user name or password; put a token in the path or query instead.', 'invalid_webhook_url')
  }
  url.hash = ''
  return url
}

/** A host name's addresses, all of them: the system resolver in production, a scripted one in tests (DNS rebinding). */
export type LookupHost = (host: string) => Promise<{ address: string; family: number }[]>

export const systemLookup: LookupHost = (host) => lookup(host, { all: true, verbatim: true })

export interface ResolvedTarget {
  address: string
  family: 4 | 6
}

/**
 * The address to connect to, checked. Every address the name resolves to must be allowed (a name that also resolves
 * to a private address is refused), and the caller connects to the very address returned, never resolving again:
 * a second lookup could answer differently (DNS rebinding).
 */
export async function resolveTarget(url: URL, policy: TargetPolicy, lookupHost: LookupHost = systemLookup): Promise<ResolvedTarget> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const literal = isIP(host)
  let addresses: { address: string; family: number }[]
  if (literal) addresses = [{ address: host, family: literal }]
  else {
    try {
      addresses = await lookupHost(host)
    } catch {
      throw new TargetRefused(`The host name "${host}" does not resolve.`, 'webhook_target_refused')
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`The host name "${host}" does not resolve.`, 'webhook_target_refused')
  const refused = policy.allowPrivate ? null : addresses.map((a) => whyNotPublic(a.address)).find((why) => why !== null)
  if (refused) {
    throw new TargetRefused(
      `"${host}" points to a non-public address: ${refused}. Webhooks may only reach public addresses on this server.`,
      'webhook_target_refused',
    )
  }
  const first = addresses[0]!
  return { address: first.address, family: first.family === 6 ? 6 : 4 }
}
