import type { FastifyRequest } from 'fastify'
import { parseIp } from '@tempbox/ip'

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const

/**
 * True when the request comes from this machine: its client address (request.ip, which takes X-Forwarded-For only
 * from proxies TRUST_PROXY names) is loopback. A forwarding header no trusted proxy consumed means an undeclared proxy
 * on this machine passed it on, so it is someone else's request, never a local one.
 */
export function isLoopbackClient(request: FastifyRequest, trustProxy: false | number | string): boolean {
  const ip = parseIp(request.ip)
  const loopback = ip !== null && (ip.version === 4 ? ip.value >> 24n === 127n : ip.value === 1n)
  if (!loopback) return false
  return trustProxy !== false || FORWARDING_HEADERS.every((name) => request.headers[name] === undefined)
}
