import { createHash, createHmac, randomBytes } from 'node:crypto'
import { sharedFaultState, type FaultTries, type IssuedAddresses, type Storage } from '@tempbox/db'
import { clientKey } from '@tempbox/ip'
import type { SMTPServerSession } from 'smtp-server'

/**
 * The tries of `+greylist` (per sender and recipient) and `+tempfail<N>` (per sender, recipient and subject). SQLite
 * (one ingest): in memory; PostgreSQL: the `smtp_fault_state` table every node shares. Bounded either way: an entry
 * lives SMTP_FAULT_STATE_TTL_SECONDS past its last try, a client keeps SMTP_FAULT_STATE_MAX_PER_CLIENT entries.
 */
export interface FaultState {
  /** Counts a try of what `parts` name (the fault, sender, recipient…) by the session's client. */
  tryAt(session: SMTPServerSession, parts: string[], now: number): Promise<FaultTries>
  close(): void
}

export interface FaultStateLimits {
  faultStateTtlMs: number
  faultStateMaxPerClient: number
  faultStateMaxEntries: number
}

const keyOf = (parts: string[]) => createHash('sha256').update(parts.join('\0')).digest()

export function createFaultState(storage: Storage, issued: IssuedAddresses, limits: FaultStateLimits, clock: () => number = Date.now): FaultState {
  const shared = sharedFaultState(storage, { ttlMs: limits.faultStateTtlMs, maxPerClient: limits.faultStateMaxPerClient })
  if (shared) {
    // An HMAC under the database's secret: the same on every node, and no IP in the table.
    const client = async (session: SMTPServerSession) =>
      createHmac('sha256', await issued.derivedKey('smtp-fault-client')).update(clientKey(session.remoteAddress)).digest()
    const timer = setInterval(() => void shared.purge(clock()).catch((error: unknown) => console.error('[smtp] fault state purge failed:', error)), 60_000)
    timer.unref()
    return {
      tryAt: async (session, parts, now) => shared.tryAt(keyOf(parts), await client(session), now),
      close: () => clearInterval(timer),
    }
  }
  return memoryFaultState(limits)
}

/**
 * One ingest's state. Entries in order of last try (a Map re-inserted on each): the least recently tried go first past
 * the total cap or the client's. Clients are HMACs under a key of this process, never IPs.
 */
export function memoryFaultState({ faultStateTtlMs: ttl, faultStateMaxPerClient: perClient, faultStateMaxEntries: total }: FaultStateLimits): FaultState {
  const secret = randomBytes(32)
  const entries = new Map<string, { client: string; firstAt: number; tries: number; expiresAt: number }>()
  /** Each client's keys, also in order of last try. */
  const byClient = new Map<string, Set<string>>()
  const remove = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    entries.delete(key)
    const keys = byClient.get(entry.client)!
    keys.delete(key)
    if (keys.size === 0) byClient.delete(entry.client)
  }
  return {
    tryAt: async (session, parts, now) => {
      const client = createHmac('sha256', secret).update(clientKey(session.remoteAddress)).digest('base64')
      const key = `${client} ${keyOf(parts).toString('base64')}`
      const found = entries.get(key)
      const entry = found && found.expiresAt > now ? { ...found, tries: found.tries + 1 } : { client, firstAt: now, tries: 1, expiresAt: 0 }
      remove(key)
      if (entries.size >= total) remove(entries.keys().next().value!)
      const keys = byClient.get(client)
      if (keys && keys.size >= perClient) remove(keys.values().next().value!)
      entry.expiresAt = now + ttl
      entries.set(key, entry)
      const kept = byClient.get(client)
      if (kept) kept.add(key)
      else byClient.set(client, new Set([key]))
      return { firstAt: entry.firstAt, tries: entry.tries }
    },
    close: () => {
      entries.clear()
      byClient.clear()
    },
  }
}
