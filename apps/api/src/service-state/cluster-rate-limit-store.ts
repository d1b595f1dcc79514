import { createHmac, randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { IpcClient } from '../cluster/ipc.js'
import type { RateLimitCount, RateLimitIncrement } from '../cluster/protocol.js'

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1]

/** What the plugin hands a store: its options, and for a route's child the route itself. */
interface StoreParams {
  continueExceeding?: boolean
  exponentialBackoff?: boolean
  cache?: number
  routeInfo?: { method?: string | string[]; url?: string }
}

/**
 * @fastify/rate-limit store for a cluster worker: every count is made by the primary (RateLimitCounters), so a
 * route's limit holds for a client whichever worker each of its connections lands on. When the primary does not
 * answer, `incr` fails with the 503 AppError and the plugin (skipOnError false) refuses the request.
 */
export function clusterRateLimitStore(ipc: IpcClient): FastifyRateLimitStoreCtor {
  class ClusterRateLimitStore implements FastifyRateLimitStore {
    private readonly namespace: string
    private readonly continueExceeding: boolean
    private readonly exponentialBackoff: boolean
    private readonly cache: number | undefined

    constructor(params: StoreParams) {
      const method = params.routeInfo?.method
      // Workers register the same routes, so a route's method and URL name the same counters in each of them.
      this.namespace = params.routeInfo?.url ? `${[method].flat().join(',')} ${params.routeInfo.url}` : '*'
      this.continueExceeding = params.continueExceeding ?? false
      this.exponentialBackoff = params.exponentialBackoff ?? false
      this.cache = params.cache
    }

    incr(key: string, callback: IncrCallback, timeWindow: number, max: number): void {
      const { namespace, continueExceeding, exponentialBackoff, cache } = this
      ipc.request('rateLimit.incr', { namespace, key, timeWindow, max, continueExceeding, exponentialBackoff, ...(cache ? { cache } : {}) }).then(
        (count) => callback(null, count),
        (err: Error) => callback(err),
      )
    }

    child(routeOptions: object): FastifyRateLimitStore {
      return new ClusterRateLimitStore(routeOptions as StoreParams)
    }
  }
  return ClusterRateLimitStore as unknown as FastifyRateLimitStoreCtor
}

interface LocalStoreInstance {
  incr(key: string, callback: (error: Error | null, result: RateLimitCount) => void, timeWindow: number, max: number): void
}
type LocalStoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number) => LocalStoreInstance

/** The plugin's own in-memory store (not exported by its index): the primary counts exactly as one process would. */
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as LocalStoreCtor

/**
 * The primary's counters for every worker: one LocalStore per route, with the same windows, LRU bound and options.
 * Keys are an HMAC of the client's IP under a key that never leaves this process, so its memory holds no raw IP.
 */
export class RateLimitCounters {
  private readonly hmacKey = randomBytes(32)
  private readonly stores = new Map<string, LocalStoreInstance>()

  incr(request: RateLimitIncrement): RateLimitCount {
    let store = this.stores.get(request.namespace)
    if (!store) {
      store = new LocalStore(request.continueExceeding, request.exponentialBackoff, request.cache)
      this.stores.set(request.namespace, store)
    }
    const key = createHmac('sha256', this.hmacKey).update(request.key).digest('base64url')
    let count: RateLimitCount | undefined
    // LocalStore answers synchronously, so no other worker's count can slip between the read and the write.
    store.incr(key, (_error, result) => (count = { current: result.current, ttl: result.ttl }), request.timeWindow, request.max)
    if (!count) throw new Error('the rate-limit store did not answer synchronously')
    return count
  }
}
