import type { Config } from '../config.js'
import { AddressLimiter } from '../services/limits/ip-limits.js'
import { MissCounter } from '../services/limits/miss-limiter.js'
import { LoginFailureCounter } from '../services/limits/login-failures.js'
import { DailySalt } from '../services/analytics/visitor-salt.js'
import { sendEvent, type IpcHandlers, type IpcPort } from './ipc.js'
import { RateLimitCounters } from './shared-rate-limit-store.js'

/**
 * The state the workers share, held by the cluster's primary: the same classes a single process uses, so the
 * limits, windows and hashing are the same whichever way the API runs. Each handler is synchronous, so a request
 * is checked and counted before the next worker's is looked at.
 */
export class PrimaryState {
  readonly limiter: AddressLimiter
  private readonly counters = new RateLimitCounters()
  private readonly salts = new DailySalt()
  private readonly misses: MissCounter
  private readonly loginFailures: LoginFailureCounter

  constructor(config: Pick<Config, 'maxActiveAddressesPerIp' | 'maxGeneratedPerHourPerIp' | 'guessLimitPerMinute' | 'loginFailuresPerAccount'>) {
    this.limiter = new AddressLimiter(config.maxActiveAddressesPerIp, config.maxGeneratedPerHourPerIp)
    this.misses = new MissCounter(config.guessLimitPerMinute)
    this.loginFailures = new LoginFailureCounter(config.loginFailuresPerAccount)
  }

  /** `otherWorkers(origin)`: the channels of every live worker but the one asking. */
  handlers(otherWorkers: (origin: IpcPort) => Iterable<IpcPort>): IpcHandlers {
    return {
      'limits.reserve': ({ ip, address, expiresAt, now }) => this.limiter.reserve(ip, address, expiresAt, now),
      'limits.release': ({ ip, address, now }) => this.limiter.release(ip, address, now),
      'limits.moveEnd': ({ address, expiresAt }) => this.limiter.moveEnd(address, expiresAt),
      'rateLimit.incr': (request) => this.counters.incr(request),
      'misses.count': ({ scope, client, now }) => this.misses.miss(scope, client, now),
      'loginFailures.blocked': ({ account, now }) => this.loginFailures.blocked(account, now),
      'loginFailures.fail': ({ account, now }) => this.loginFailures.fail(account, now),
      'salt.forDay': ({ day }) => this.salts.forDay(day).toString('base64'),
      // The news goes out before the answer does. A client told "deleted" that connects again reaches a worker
      // through the primary (round-robin), which passes the connection down the same, ordered, channel the news
      // went down first: no worker can serve that client its cached listing with the message still in it.
      'peers.messageDeleted': (args, origin) => {
        for (const port of otherWorkers(origin)) sendEvent(port, 'messageDeleted', args)
      },
      // Same ordering argument: a reader told "marked read" is never served the listing from before.
      'peers.readStateChanged': (args, origin) => {
        for (const port of otherWorkers(origin)) sendEvent(port, 'readStateChanged', args)
      },
    }
  }

  /** Drops limiter entries that no longer limit anything; the workers' sweeps leave the primary's state alone. */
  sweep(now = Date.now()): void {
    this.limiter.sweep(now)
    this.misses.sweep(now)
    this.loginFailures.sweep(now)
  }
}
