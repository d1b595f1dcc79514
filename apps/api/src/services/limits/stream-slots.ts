import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { clientKey } from '@tempbox/ip'
import { AppError } from '../../errors.js'

/** What a client refused a stream is told to wait: about one long poll's default timeout, when its others may end. */
export const STREAM_RETRY_SECONDS = 30

/** The 429 (sent with Retry-After) for a client holding MAX_STREAMS_PER_CLIENT streams and polls already. */
export function streamsLimitReached(max: number): AppError {
  return new AppError('rate_limited', `Your network already has ${max} live inbox views or waits open. Close one, or try again in ${STREAM_RETRY_SECONDS} seconds.`)
}

/** Places for open streams and long polls, by client key: this process's StreamSlots, or the cluster primary's. */
export interface StreamPlaces {
  /** Takes a place for the client; false when it holds them all. */
  take(client: string): boolean | Promise<boolean>
  give(client: string): void | Promise<void>
}

/**
 * Open event streams and long polls per client (an IPv4 address or an IPv6 /64), in memory only: each holds a
 * connection, a subscription and timers for as long as it lasts, so one client must not hold hundreds. An entry
 * lives only while the client has one open.
 */
export class StreamSlots implements StreamPlaces {
  private readonly open = new Map<string, number>()

  constructor(private readonly max: number) {}

  take(client: string): boolean {
    const held = this.open.get(client) ?? 0
    if (held >= this.max) return false
    this.open.set(client, held + 1)
    return true
  }

  give(client: string): void {
    const left = (this.open.get(client) ?? 1) - 1
    if (left > 0) this.open.set(client, left)
    else this.open.delete(client)
  }

  /** Streams and polls open for the client now. */
  count(client: string): number {
    return this.open.get(client) ?? 0
  }
}

const localSlots = new WeakMap<object, StreamSlots>()

/**
 * Takes a place for a stream or long poll (`/events`, `/wait`, `/code` share them) of the requesting client, or sets
 * Retry-After and throws the 429. Call the function returned when the stream or poll ends, however it ends (once).
 */
export async function takeStreamSlot(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<() => void> {
  const max = app.config.maxStreamsPerClient
  // Keyed by the server: each route plugin sees an app object of its own, and the places are the whole app's.
  let places: StreamPlaces | undefined = app.sharedState.streamPlaces ?? localSlots.get(app.server)
  if (!places) localSlots.set(app.server, (places = new StreamSlots(max)))
  const client = clientKey(request.ip)
  if (!(await places.take(client))) {
    reply.header('Retry-After', String(STREAM_RETRY_SECONDS))
    throw streamsLimitReached(max)
  }
  let given = false
  return () => {
    if (given) return
    given = true
    // A primary that cannot be reached gives the place back when the worker ends (PrimaryState.workerGone).
    void Promise.resolve(places.give(client)).catch(() => undefined)
  }
}
