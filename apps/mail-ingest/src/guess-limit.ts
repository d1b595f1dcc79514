import { createHmac } from 'node:crypto'
import { sharedGuessWindow, type IssuedAddresses, type Storage } from '@tempbox/db'
import { clientKey } from '@tempbox/ip'
import type { SMTPServerSession } from 'smtp-server'

/** SMTP_GUESS_LIMIT_PER_MINUTE's window. */
export const GUESS_WINDOW_MS = 60_000

/**
 * Recipients naming an address never issued, counted per client (IPv4 address or IPv6 /64) across its sessions in a
 * sliding minute (issue 26). Past the budget the client is blocked for a window: every RCPT of it gets 450 4.7.1, a
 * live address's too, so its answers tell nothing apart. SQLite (one ingest): in memory; PostgreSQL: shared by nodes.
 */
export interface GuessLimit {
  /** True while the session's client is blocked. */
  blocked(session: SMTPServerSession): Promise<boolean>
  /** Counts a never-issued recipient of the session; true when it is past the budget (the client is then blocked). */
  guess(session: SMTPServerSession): Promise<boolean>
  close(): void
}

interface Window {
  blockedUntil(key: string): Promise<number>
  count(key: string, now: number): Promise<{ blockedUntil: number; newlyBlocked: boolean }>
}

export function createGuessLimit(
  storage: Storage,
  issued: IssuedAddresses,
  limits: { guessLimitPerMinute: number; guessMaxClients: number },
  clock: () => number = Date.now,
  log: (line: string) => void = (line) => console.warn(line),
): GuessLimit {
  const limit = limits.guessLimitPerMinute
  let window: Window
  let stop = () => {}
  const shared = sharedGuessWindow(storage, { limit, windowMs: GUESS_WINDOW_MS })
  if (shared) {
    // The table holds HMACs of clients, never an IP; the key comes from the database's secret, the same on every node.
    const hashed = async (key: string) => createHmac('sha256', await issued.derivedKey('smtp-guess-client')).update(key).digest()
    window = { blockedUntil: async (key) => shared.blockedUntil(await hashed(key)), count: async (key, now) => shared.count(await hashed(key), now) }
    const timer = setInterval(() => void shared.purge(clock()).catch((error: unknown) => console.error('[smtp] guess window purge failed:', error)), GUESS_WINDOW_MS)
    timer.unref()
    stop = () => clearInterval(timer)
  } else {
    window = memoryWindow(limit, limits.guessMaxClients)
  }
  const blocked = async (session: SMTPServerSession) => (await window.blockedUntil(clientKey(session.remoteAddress))) > clock()
  return {
    blocked,
    guess: async (session) => {
      const key = clientKey(session.remoteAddress)
      const now = clock()
      const { blockedUntil, newlyBlocked } = await window.count(key, now)
      if (newlyBlocked) {
        // Once per client per window (on every engine, only the guess that blocks it says so); a keyed tag, no IP.
        const tag = createHmac('sha256', await issued.derivedKey('smtp-log-client')).update(key).digest('hex').slice(0, 12)
        log(`[smtp] client ${tag} named more than ${limit} never-issued addresses in a minute: every RCPT of it gets 450 4.7.1 until ${new Date(blockedUntil).toISOString()}`)
      }
      return blockedUntil > now
    },
    close: () => stop(),
  }
}

/**
 * One ingest's window: per client the times of its guesses within the window (at most `limit` + 1), least recently
 * counted client dropped first past `maxClients`, so memory stays bounded whatever a network of many /64s does.
 */
function memoryWindow(limit: number, maxClients: number): Window {
  const clients = new Map<string, { hits: number[]; blockedUntil: number }>()
  return {
    blockedUntil: async (key) => clients.get(key)?.blockedUntil ?? 0,
    count: async (key, now) => {
      let entry = clients.get(key)
      clients.delete(key)
      if (!entry) {
        if (clients.size >= maxClients) clients.delete(clients.keys().next().value!)
        entry = { hits: [], blockedUntil: 0 }
      }
      clients.set(key, entry)
      if (entry.blockedUntil > now) return { blockedUntil: entry.blockedUntil, newlyBlocked: false }
      entry.hits = entry.hits.filter((at) => at > now - GUESS_WINDOW_MS)
      entry.hits.push(now)
      if (entry.hits.length <= limit) return { blockedUntil: entry.blockedUntil, newlyBlocked: false }
      entry.hits = []
      entry.blockedUntil = now + GUESS_WINDOW_MS
      return { blockedUntil: entry.blockedUntil, newlyBlocked: true }
    },
  }
}
