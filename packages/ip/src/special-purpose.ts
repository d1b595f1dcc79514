import { parseIp, type ParsedIp } from './ip-address.js'

/** Why an address is not an ordinary public one: the registry entry it falls in. */
export interface SpecialPurpose {
  /** The range matched, e.g. `127.0.0.0/8`, and what it is for, e.g. `loopback`. */
  range: string
  name: string
  /** Set when the IPv4 address an IPv6 one carries (mapped, NAT64, 6to4, Teredo) is what is special. */
  carrier?: { range: string; name: string; ipv4: string }
}

interface Range {
  range: string
  name: string
  base: bigint
  prefix: number
}

function ranges(version: 4 | 6, entries: readonly (readonly [string, string])[]): Range[] {
  const list = entries.map(([range, name]) => {
    const [net = '', prefix = ''] = range.split('/')
    const parsed = parseIp(net)
    if (!parsed || parsed.version !== version) throw new Error(`not an IPv${version} range: ${range}`)
    return { range, name, base: parsed.value, prefix: Number(prefix) }
  })
  // Most specific first, so 255.255.255.255 is named as broadcast rather than as part of 240.0.0.0/4.
  return list.sort((a, b) => b.prefix - a.prefix)
}

function find(list: Range[], bits: number, value: bigint): Range | undefined {
  return list.find((r) => value >> BigInt(bits - r.prefix) === r.base >> BigInt(bits - r.prefix))
}

/** The IANA IPv4 Special-Purpose Address Registry, plus multicast (224.0.0.0/4). */
const IPV4 = ranges(4, [
  ['0.0.0.0/8', '"this network"'],
  ['10.0.0.0/8', 'private network'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local, where cloud metadata services answer'],
  ['172.16.0.0/12', 'private network'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation (TEST-NET-1)'],
  ['192.31.196.0/24', 'AS112 DNS sink'],
  ['192.52.193.0/24', 'AMT relay anycast'],
  ['192.88.99.0/24', 'deprecated 6to4 relay anycast'],
  ['192.168.0.0/16', 'private network'],
  ['192.175.48.0/24', 'AS112 direct delegation'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'documentation (TEST-NET-3)'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
  ['255.255.255.255/32', 'limited broadcast'],
])

/** The IANA IPv6 Special-Purpose Address Registry, less the ranges that carry an IPv4 address (CARRIERS). */
const IPV6 = ranges(6, [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::/96', 'deprecated IPv4-compatible'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['100::/64', 'discard-only'],
  ['2001::/23', 'IETF protocol assignments'],
  ['2001::/32', 'Teredo'],
  ['2001:db8::/32', 'documentation'],
  ['2620:4f:8000::/48', 'AS112 direct delegation'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'SRv6 segment identifiers'],
  ['fc00::/7', 'unique local (private network)'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'deprecated site-local'],
  ['ff00::/8', 'multicast'],
])

/** Only 2000::/3 is allocated for global unicast; the rest of the space is reserved by the IETF. */
const GLOBAL_UNICAST = ranges(6, [['2000::/3', 'global unicast']])

const V4_MASK = 0xffffffffn

function carrier(range: string, name: string, ipv4s: (value: bigint) => bigint[]) {
  return { range: ranges(6, [[range, name]])[0]!, ipv4s }
}

/** IPv6 ranges whose addresses carry IPv4 ones that a host or gateway reaches when they are connected to. */
const CARRIERS = [
  carrier('::ffff:0:0/96', 'IPv4-mapped', (v) => [v & V4_MASK]),
  carrier('64:ff9b::/96', 'NAT64', (v) => [v & V4_MASK]),
  carrier('2002::/16', '6to4', (v) => [(v >> 80n) & V4_MASK]),
  // RFC 4380: the Teredo server's address in bits 32–63, the client's in the last 32 bits inverted.
  carrier('2001::/32', 'Teredo', (v) => [(v >> 64n) & V4_MASK, (v & V4_MASK) ^ V4_MASK]),
]

function v4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.')
}

/**
 * The IPv4 addresses an IPv6 one carries (IPv4-mapped, NAT64 64:ff9b::/96, 6to4, Teredo server and client), with the
 * carrier's range; null for an IPv4 address or an IPv6 one that carries none.
 */
export function embeddedIpv4(ip: ParsedIp): { range: string; name: string; ipv4s: string[] } | null {
  if (ip.version !== 6) return null
  const carrier = CARRIERS.find((c) => find([c.range], 128, ip.value))
  return carrier ? { range: carrier.range.range, name: carrier.range.name, ipv4s: carrier.ipv4s(ip.value).map(v4Text) } : null
}

/**
 * The special-purpose range an address is in, or null for an ordinary public one. An IPv6 address that carries an
 * IPv4 one is judged by that IPv4 address too (a NAT64 gateway or 6to4 relay would connect to it); outside 2000::/3
 * nothing else is public unicast.
 */
export function specialPurpose(ip: ParsedIp): SpecialPurpose | null {
  if (ip.version === 4) {
    const hit = find(IPV4, 32, ip.value)
    return hit ? { range: hit.range, name: hit.name } : null
  }
  const carried = embeddedIpv4(ip)
  for (const ipv4 of carried?.ipv4s ?? []) {
    const inner = specialPurpose(parseIp(ipv4)!)
    if (inner) return { ...inner, carrier: { range: carried!.range, name: carried!.name, ipv4 } }
  }
  const hit = find(IPV6, 128, ip.value)
  if (hit) return { range: hit.range, name: hit.name }
  if (carried) return null
  return find(GLOBAL_UNICAST, 128, ip.value) ? null : { range: 'outside 2000::/3', name: 'reserved by the IETF, not global unicast' }
}
