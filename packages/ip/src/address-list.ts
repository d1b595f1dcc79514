import { BlockList } from 'node:net'
import { parseIp } from './ip-address.js'

/** A list of addresses and CIDR ranges (e.g. the proxies trusted to name a client's address). */
export interface AddressList {
  /** Whether `ip` (as a socket reports it; IPv4-mapped v6 counts as its v4 address) is in the list. */
  includes: (ip: string) => boolean
  /** The entries as written, for start-up lines. */
  entries: readonly string[]
}

/**
 * Reads a comma- or space-separated list of IPs and CIDRs (`10.0.0.0/8`, `2001:db8::/32`, `192.0.2.7`). Entries that
 * are neither come back in `invalid`, so configuration can name each one.
 */
export function parseAddressList(raw: string): { list: AddressList; invalid: string[] } {
  const entries = raw.split(/[\s,]+/).filter(Boolean)
  const blocks = new BlockList()
  const invalid: string[] = []
  for (const entry of entries) {
    const slash = entry.indexOf('/')
    const ip = parseIp(slash === -1 ? entry : entry.slice(0, slash))
    const prefixText = slash === -1 ? null : entry.slice(slash + 1)
    const maxPrefix = ip?.version === 4 ? 32 : 128
    const prefix = prefixText === null ? maxPrefix : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1
    if (!ip || prefix < 0 || prefix > maxPrefix) {
      invalid.push(entry)
      continue
    }
    blocks.addSubnet(ip.ip, prefix, ip.version === 4 ? 'ipv4' : 'ipv6')
  }
  return {
    list: {
      includes: (candidate) => {
        const ip = parseIp(candidate)
        return ip !== null && blocks.check(ip.ip, ip.version === 4 ? 'ipv4' : 'ipv6')
      },
      entries,
    },
    invalid,
  }
}
