import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Config } from './config.js'
import { AddressLimiter, type AddressLimits } from './services/limits/ip-limits.js'
import { MissCounter, type MissLimits } from './services/limits/miss-limiter.js'
import { LoginFailureCounter, type LoginFailures } from './services/limits/login-failures.js'
import { DailySalt, type VisitorSalts } from './services/analytics/visitor-salt.js'
import { FixedLeadership, type Leadership } from './services/jobs/leadership.js'
import type { StreamPlaces } from './services/limits/stream-slots.js'

/** The other API processes, told of changes their caches cannot notice in the database. */
export interface Peers {
  /** Resolves once every other process has been sent the news (see cluster/primary-state.ts for why that suffices). */
  messageDeleted(inboxId: number, id: number): void | Promise<void>
  onMessageDeleted(handler: (inboxId: number, id: number) => void): void
  /** A message of the inbox was marked read or unread: cached listings of it are stale. Resolves like messageDeleted. */
  readStateChanged(inboxId: number): void | Promise<void>
  onReadStateChanged(handler: (inboxId: number) => void): void
}

/**
 * State that must be one for the whole service, however many API processes serve it. A single process holds it
 * itself; with API_PROCESSES > 1 each worker gets versions that ask the cluster's primary over IPC (src/cluster); on
 * PostgreSQL every process of every node uses the database's (postgres-global-state.ts).
 */
export interface GlobalState {
  addressLimits: AddressLimits
  /** Misses counted per client, so guessing inbox names and short-link codes is slowed (plugins/guess-limit.ts). */
  missLimits: MissLimits
  /** Failed sign-ins per account (services/limits/login-failures.ts). */
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

/** Everything in this process: the one-process server and the tests. */
export function localGlobalState(config: Config): GlobalState {
  return {
    addressLimits: new AddressLimiter(config.maxActiveAddressesPerIp, config.maxGeneratedPerHourPerIp),
    missLimits: new MissCounter(config.guessLimitPerMinute),
    loginFailures: new LoginFailureCounter(config.loginFailuresPerAccount),
    visitorSalts: new DailySalt(),
    peers: NO_PEERS,
    leadership: new FixedLeadership(true),
  }
}
