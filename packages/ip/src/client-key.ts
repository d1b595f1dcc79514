import { parseIp } from './ip-address.js'

/**
 * The unit a per-client limit counts: an IPv4 address, or an IPv6 /64 — one home or office network gets a whole /64,
 * so counting single v6 addresses would hand each client 2^64 fresh counters.
 */
export function clientKey(ip: string): string {
  const parsed = parseIp(ip)
  if (!parsed) return ip
  if (parsed.version === 4) return parsed.ip
  return `${(parsed.value >> 64n).toString(16)}::/64`
}
