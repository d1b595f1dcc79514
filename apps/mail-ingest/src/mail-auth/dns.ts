import { Resolver } from 'node:dns/promises'
import { readFileSync } from 'node:fs'
import type { DNSResolver } from 'mailauth'

type Answer = Awaited<ReturnType<DNSResolver>>

/** Answers that say "no such record": as definite as a record, so they are cached too. */
const NEGATIVE_CODES = new Set(['ENOTFOUND', 'ENODATA'])

/**
 * The resolver mailauth uses in production: one try per query with a short timeout (a slow domain must not hold a
 * check for long), and a cache capped in entries, least recently used dropped first, for answers and for "no such
 * record". Failures (timeouts, SERVFAIL) are not cached: the next message asks again. Concurrent asks for the same
 * name share one query. Entries live `ttlMs` regardless of the record's TTL (Node's resolve does not give it for TXT).
 */
export function createCachingResolver(options: { timeoutMs: number; maxEntries: number; ttlMs: number; now?: () => number; lookup?: DNSResolver }): DNSResolver & { size: () => number } {
  const now = options.now ?? Date.now
  const lookup = options.lookup ?? systemLookup(options.timeoutMs)
  const cache = new Map<string, { expiresAt: number; answer?: Answer; error?: Error }>()
  const inFlight = new Map<string, Promise<Answer>>()
  const remember = (key: string, entry: { answer?: Answer; error?: Error }) => {
    if (options.maxEntries <= 0) return
    cache.delete(key)
    cache.set(key, { ...entry, expiresAt: now() + options.ttlMs })
    while (cache.size > options.maxEntries) cache.delete(cache.keys().next().value!)
  }
  const resolve = async (name: string, rrtype: string): Promise<Answer> => {
    const key = `${rrtype} ${name.toLowerCase()}`
    const hit = cache.get(key)
    if (hit && hit.expiresAt > now()) {
      // Map order is insertion order: moving the entry to the end makes it the most recently used.
      cache.delete(key)
      cache.set(key, hit)
      if (hit.error) throw hit.error
      return hit.answer!
    }
    const pending = inFlight.get(key)
    if (pending) return pending
    const query = lookup(name, rrtype).then(
      (answer) => {
        remember(key, { answer })
        return answer
      },
      (error: unknown) => {
        if (NEGATIVE_CODES.has((error as { code?: string }).code ?? '')) remember(key, { error: error as Error })
        throw error
      },
    )
    inFlight.set(key, query)
    try {
      return await query
    } finally {
      inFlight.delete(key)
    }
  }
  return Object.assign(resolve, { size: () => cache.size })
}

function systemLookup(timeoutMs: number): DNSResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 })
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<Answer>
}

/**
 * A DNS zone from a JSON file, for tests and local stacks that must run offline: `{ "name": { "TXT": [["v=spf1 …"]],
 * "A": ["192.0.2.1"] } }`. A name given as `"SERVFAIL"` fails every query (a broken DNS); names not listed do not exist.
 */
export function fixtureResolver(zone: Record<string, Record<string, Answer> | 'SERVFAIL'>): DNSResolver {
  const names = new Map(Object.entries(zone).map(([name, records]) => [name.toLowerCase(), records]))
  return async (name, rrtype) => {
    const records = names.get(name.toLowerCase())
    if (records === 'SERVFAIL') throw dnsError('ESERVFAIL', name)
    const answer = records?.[rrtype]
    if (!answer) throw dnsError(records ? 'ENODATA' : 'ENOTFOUND', name)
    return answer
  }
}

export function readFixtureResolver(path: string): DNSResolver {
  return fixtureResolver(JSON.parse(readFileSync(path, 'utf8')) as Parameters<typeof fixtureResolver>[0])
}

function dnsError(code: string, name: string): Error {
  return Object.assign(new Error(`${code} ${name}`), { code })
}
