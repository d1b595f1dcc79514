import { BlockList, isIP } from 'node:net'

/** An IP address in normal written form with its numeric value, or null when the text is not an IP. */
export interface ParsedIp {
  ip: string
  version: 4 | 6
  /** v4: the uint32 value; v6: the 128-bit value. */
  value: bigint
}

/**
 * Parses user input or `request.ip`. IPv4-mapped v6 (`::ffff:1.2.3.4`, what a dual-stack socket reports)
 * becomes the plain v4 address so it is looked up, and shown, as the person knows it.
 */
export function parseIp(input: string): ParsedIp | null {
  let text = input.trim()
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1)
  const zone = text.indexOf('%')
  if (zone !== -1) text = text.slice(0, zone)
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text)
  if (mapped) text = mapped[1]!
  const version = isIP(text)
  if (version === 4) {
    const value = text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n)
    return { ip: text.split('.').map(Number).join('.'), version: 4, value }
  }
  if (version === 6) {
    const value = v6ToBigInt(text)
    return { ip: formatV6(value), version: 6, value }
  }
  return null
}

function v6ToBigInt(text: string): bigint {
  let head = text
  let v4Tail: number[] = []
  const lastColon = text.lastIndexOf(':')
  if (text.slice(lastColon + 1).includes('.')) {
    v4Tail = text.slice(lastColon + 1).split('.').map(Number)
    head = text.slice(0, lastColon + 1) + '0:0'
  }
  const [left = '', right] = head.split('::')
  const l = left ? left.split(':') : []
  const r = right !== undefined && right !== '' ? right.split(':') : []
  const groups = right === undefined ? l : [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r]
  let value = groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n)
  if (v4Tail.length === 4) value = (value & ~0xffffffffn) | v4Tail.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n)
  return value
}

/** RFC 5952 form: lower case, longest run of zero groups (≥ 2) collapsed. */
function formatV6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - i * 16)) & 0xffffn))
  let bestStart = -1
  let bestLen = 1
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLen) {
      bestStart = i
      bestLen = j - i
    }
    i = j
  }
  const hex = groups.map((g) => g.toString(16))
  if (bestStart === -1) return hex.join(':')
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`
}

/** Ranges that never reach the public internet: nothing to locate there. */
const nonPublic = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) nonPublic.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['100::', 64],
] as const) nonPublic.addSubnet(net, prefix, 'ipv6')

export function isPrivateIp(ip: ParsedIp): boolean {
  return nonPublic.check(ip.ip, ip.version === 4 ? 'ipv4' : 'ipv6')
}
