import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Leadership } from './leadership.js'
import type { StreamPlaces } from '../services/limits/stream-slots.js'

/** Failed sign-ins are counted per account in windows of this length (issue 26). */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000

/** The other API processes, told of changes their caches cannot notice in the database. */
export interface Peers {
  /** Resolves once every other process has been sent the news (see cluster-primary-state.ts for why that suffices). */
  messageDeleted(inboxId: number, id: number): void | Promise<void>
  onMessageDeleted(handler: (inboxId: number, id: number) => void): void
  /** A message of the inbox was marked read or unread: cached listings of it are stale. Resolves like messageDeleted. */
  readStateChanged(inboxId: number): void | Promise<void>
  onReadStateChanged(handler: (inboxId: number) => void): void
}

/**
 * State that must be one for the whole service, however many API processes serve it. A single process holds it
 * itself (in-process-*.ts); with API_PROCESSES > 1 each worker asks the cluster's primary over IPC (cluster-*.ts);
 * on PostgreSQL every process of every node uses the database's (postgres-*.ts). open-shared-state.ts chooses.
 */
export interface SharedState {
  addressLimits: AddressLimits
  /** Misses counted per client, so guessing inbox names and short-link codes is slowed (plugins/guess-limit.ts). */
  missLimits: MissLimits
  /** Failed sign-ins per account (in-process-login-failures.ts, postgres-login-failures.ts). */
  loginFailures: LoginFailures
  /** @fastify/rate-limit store; undefined keeps the plugin's own in-memory store. */
  rateLimitStore?: FastifyRateLimitStoreCtor
  visitorSalts: VisitorSalts
  peers: Peers
  /** Which process runs the one-per-service jobs: the expiry sweep and the webhook delivery loop. */
  leadership: Leadership
  /** Stream and long-poll places per client: the cluster primary's; undefined, each process counts its own. */
  streamPlaces?: StreamPlaces
  /** Deletes this state's expired entries where they are not in this process's memory (run by the sweep); how many. */
  expire?(now: number): Promise<number>
}

/** Nobody else to tell: one process serves. */
export const NO_PEERS: Peers = { messageDeleted: () => undefined, onMessageDeleted: () => undefined, readStateChanged: () => undefined, onReadStateChanged: () => undefined }

/**
 * The per-client address limits as the inbox rules see them: an AddressLimiter in this process, one in the cluster's
 * primary reached over IPC (several API processes on one host), or PostgreSQL's tables (several nodes on PostgreSQL).
 * Reserving checks and counts in one step, so two requests from one client racing through different processes cannot
 * both take the last place. A place is held by address, so it follows that address's end whoever changes it.
 */
export interface AddressLimits {
  /** Counts `address` (about to be made, ending at `expiresAt`) for `ip`, or throws the 429 AppError when none is allowed now. */
  reserve(ip: string, address: string, expiresAt: number, now: number): void | Promise<void>
  /** Gives back a reservation whose address could not be created after all. */
  release(ip: string, address: string, now: number): void | Promise<void>
  /**
   * The address now ends at `expiresAt` (a burn, a longer keep, or `now` when released or burned): its active place is
   * held until then. The hourly count stays: creating and releasing in a loop must not get round the per-hour limit.
   */
  moveEnd(address: string, expiresAt: number): void | Promise<void>
  /** Drops what no longer limits anything (called by the sweeper). */
  sweep(now: number): void
}

/**
 * Counts a client's misses (answers 404 to names it guessed) per scope, so guessing inbox addresses or short-link
 * codes costs time while reading what you know costs nothing. The one-process version is MissCounter; cluster workers
 * ask the primary's (ClusterState); on PostgreSQL every node counts in the database (PostgresMissLimits).
 */
export interface MissLimits {
  /** Counts one miss; the milliseconds until `client` may guess again once it is over the limit, else 0. */
  miss(scope: string, client: string, now: number): number | Promise<number>
}

/**
 * Failed sign-ins counted per account, keyed by `accountKey` (an HMAC of the normalised email, so an unknown account
 * is counted exactly like a real one and the counters name nobody). One process counts in LoginFailureCounter, cluster
 * workers ask the primary's, PostgreSQL nodes count in the database (PostgresLoginFailures).
 */
export interface LoginFailures {
  /** The milliseconds until the account may be signed in to again (0: not throttled); counts nothing. */
  blocked(account: string, now: number): number | Promise<number>
  /** Counts one failed sign-in. */
  fail(account: string, now: number): void | Promise<void>
}

/** Where the analytics visitor hash gets its salt for a UTC day (`YYYY-MM-DD`). */
export interface VisitorSalts {
  forDay(day: string): Buffer | Promise<Buffer>
}
