import type { Db } from '@tempbox/db'
import type { Config } from '../config.js'
import type { SharedState, Peers } from './shared-state.js'
import { deleteSaltsBefore } from '../repositories/visitor-salt-repository.js'
import { deleteEndedWindows } from '../repositories/window-counter-repository.js'
import { dayOf } from '../services/analytics/analytics-service.js'
import { PostgresVisitorSalts } from './postgres-visitor-salts.js'
import { PostgresLeadership, type LeadershipTiming } from './postgres-leadership.js'
import { PostgresAddressLimits } from './postgres-address-limits.js'
import { PostgresMissLimits } from './postgres-miss-limits.js'
import { PostgresLoginFailures } from './postgres-login-failures.js'
import { postgresRateLimitStore } from './postgres-rate-limit-store.js'
import { deriveKey } from './client-keys.js'

/** A node that does not lead tries for the lock this often; the leader checks its lock's connection as often. */
const LEADERSHIP_TIMING: LeadershipTiming = { retryMs: 5_000, checkMs: 5_000 }

/**
 * The state that must be one for the whole service, kept in PostgreSQL when it is the engine, so it holds across
 * every API node (and every process of each): address limits, rate-limit and guess counters, the visitor salt, and
 * the lock that picks the node running the one-per-service jobs. Clients are keyed by HMACs under keys derived from
 * JWT_SECRET, which every node shares. `peers` stay what the caller has (same-host workers); across nodes deletions,
 * read-state changes and inbox updates travel by the database's notifications.
 */
export function postgresSharedState(
  db: Db,
  config: Pick<Config, 'jwtSecret' | 'maxActiveAddressesPerIp' | 'maxGeneratedPerHourPerIp' | 'guessLimitPerMinute' | 'loginFailuresPerAccount'>,
  peers: Peers,
  onError: (message: string, err: unknown) => void,
  timing: LeadershipTiming = LEADERSHIP_TIMING,
): SharedState {
  const clientKeys = deriveKey(config.jwtSecret, 'client-key')
  const addressLimits = new PostgresAddressLimits(db, clientKeys, config.maxActiveAddressesPerIp, config.maxGeneratedPerHourPerIp)
  return {
    addressLimits,
    missLimits: new PostgresMissLimits(db, clientKeys, config.guessLimitPerMinute),
    loginFailures: new PostgresLoginFailures(db, config.loginFailuresPerAccount),
    rateLimitStore: postgresRateLimitStore(db, clientKeys),
    visitorSalts: new PostgresVisitorSalts(db, deriveKey(config.jwtSecret, 'visitor-salt')),
    peers,
    leadership: new PostgresLeadership(db, timing, onError),
    async expire(now) {
      const counts = await Promise.all([addressLimits.expire(now), deleteEndedWindows(db, now), deleteSaltsBefore(db, dayOf(now))])
      return counts.reduce((a, b) => a + b, 0)
    },
  }
}
