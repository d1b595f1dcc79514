/** What the cluster's primary and its workers say to each other over the IPC channel. */

/** Set on each worker at fork; a replacement worker gets its predecessor's. */
export const ROLE_ENV = 'TEMPBOX_API_WORKER_ROLE'
export type WorkerRole = 'sweeper' | 'server'

export interface AddressReservation {
  /** Crosses IPC in memory only: the primary keys its entries by an HMAC of it, like a single process does. */
  ip: string
  address: string
  expiresAt: number
  now: number
}

export interface RateLimitIncrement {
  /** One set of counters per route, as the plugin keeps one store per route. */
  namespace: string
  /** The client's IP (plus any route group id): the primary keys its counters by an HMAC of it. */
  key: string
  timeWindow: number
  max: number
  continueExceeding: boolean
  exponentialBackoff: boolean
  cache?: number
}

export interface RateLimitCount {
  current: number
  ttl: number
}

/** Requests a worker makes of the primary: method → [arguments, result]. */
export interface PrimaryMethods {
  'limits.reserve': [AddressReservation, void]
  'limits.release': [Omit<AddressReservation, 'expiresAt'>, void]
  'limits.moveEnd': [Pick<AddressReservation, 'address' | 'expiresAt'>, void]
  'rateLimit.incr': [RateLimitIncrement, RateLimitCount]
  /** An event stream or long poll of `client` (its key from @tempbox/ip) starts: false past MAX_STREAMS_PER_CLIENT. */
  'streams.take': [{ client: string }, boolean]
  'streams.give': [{ client: string }, void]
  /** One miss of a guessed name; answers the ms the client must wait (0 while under the limit). */
  'misses.count': [{ scope: string; client: string; now: number }, number]
  /** The ms until the account may be signed in to again (0: not throttled). */
  'loginFailures.blocked': [{ account: string; now: number }, number]
  'loginFailures.fail': [{ account: string; now: number }, void]
  /** The day's analytics salt, base64 (JSON carries no Buffer). */
  'salt.forDay': [{ day: string }, string]
  /** Answered once the other workers have been sent `messageDeleted`. */
  'peers.messageDeleted': [{ inboxId: number; id: number }, void]
  /** Answered once the other workers have been sent `readStateChanged`. */
  'peers.readStateChanged': [{ inboxId: number }, void]
}

/** Events the primary sends to workers unasked. */
export interface WorkerEvents {
  messageDeleted: { inboxId: number; id: number }
  readStateChanged: { inboxId: number }
}
