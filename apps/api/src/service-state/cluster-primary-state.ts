import type { Config } from '../config.js'
import { AddressLimiter } from './in-process-address-limits.js'
import { MissCounter } from './in-process-miss-limits.js'
import { LoginFailureCounter } from './in-process-login-failures.js'
import { DailySalt } from './in-process-visitor-salts.js'
import { sendEvent, type IpcHandlers, type IpcPort } from '../cluster/ipc.js'
import { RateLimitCounters } from './cluster-rate-limit-store.js'
import { StreamSlots } from '../services/limits/stream-slots.js'

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
  readonly streams: StreamSlots
  /** The places each worker holds, given back when it ends (its streams ended with it). */
  private readonly streamsByWorker = new Map<IpcPort, Map<string, number>>()

  constructor(
    config: Pick<Config, 'maxActiveAddressesPerIp' | 'maxGeneratedPerHourPerIp' | 'guessLimitPerMinute' | 'loginFailuresPerAccount' | 'maxStreamsPerClient'>,
  ) {
    this.streams = new StreamSlots(config.maxStreamsPerClient)
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
      'streams.take': ({ client }, origin) => {
        if (!this.streams.take(client)) return false
        const held = this.streamsByWorker.get(origin) ?? new Map<string, number>()
        held.set(client, (held.get(client) ?? 0) + 1)
        this.streamsByWorker.set(origin, held)
        return true
      },
      'streams.give': ({ client }, origin) => {
        const held = this.streamsByWorker.get(origin)
        const n = held?.get(client) ?? 0
        if (n === 0) return
        if (n > 1) held!.set(client, n - 1)
        else held!.delete(client)
        this.streams.give(client)
      },
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

  /** A worker ended: the places of its streams and polls, which ended with it, are given back. */
  workerGone(port: IpcPort): void {
    for (const [client, n] of this.streamsByWorker.get(port) ?? []) for (let i = 0; i < n; i++) this.streams.give(client)
    this.streamsByWorker.delete(port)
  }

  /** Drops limiter entries that no longer limit anything; the workers' sweeps leave the primary's state alone. */
  sweep(now = Date.now()): void {
    this.limiter.sweep(now)
    this.misses.sweep(now)
    this.loginFailures.sweep(now)
  }
}
