import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Db } from '@tempbox/db'
import { hitWindow, type PastMax } from '../repositories/window-counter-repository.js'
import { hashClient } from './client-keys.js'

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1]

/** What the plugin hands a store: its options, and for a route's child the route itself. */
interface StoreParams {
  continueExceeding?: boolean
  exponentialBackoff?: boolean
  routeInfo?: { method?: string | string[]; url?: string }
}

/**
 * @fastify/rate-limit's custom store (its `store` option: a class the plugin builds with its options, `child` per
 * route, `incr(key, callback, timeWindow, max)`) counting in PostgreSQL, so a route's limit holds for a client
 * across every API node. Each route counts apart, named by its method and URL as every node registers the same
 * routes. When PostgreSQL fails, `incr` answers the error and the plugin (skipOnError false) refuses the request:
 * a limit is never skipped. `clock` is for tests.
 */
export function postgresRateLimitStore(db: Db, key: Buffer, clock: () => number = Date.now): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly scope: string
    private readonly pastMax: PastMax

    constructor(params: StoreParams) {
      const method = params.routeInfo?.method
      this.scope = params.routeInfo?.url ? `${[method].flat().join(',')} ${params.routeInfo.url}` : '*'
      // As the plugin's LocalStore and RedisStore: continueExceeding wins over exponentialBackoff.
      this.pastMax = params.continueExceeding ? 'restart' : params.exponentialBackoff ? 'double' : 'keep'
    }

    incr(client: string, callback: IncrCallback, timeWindow: number, max: number): void {
      const now = clock()
      hitWindow(db, { scope: this.scope, clientKey: hashClient(key, client), windowMs: timeWindow, max, pastMax: this.pastMax, now }).then(
        ({ hits, msLeft }) => callback(null, { current: hits, ttl: msLeft }),
        (err: Error) => callback(err),
      )
    }

    child(routeOptions: object): FastifyRateLimitStore {
      return new PostgresRateLimitStore(routeOptions as StoreParams)
    }
  }
  return PostgresRateLimitStore as unknown as FastifyRateLimitStoreCtor
}
