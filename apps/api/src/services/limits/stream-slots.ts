import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { clientKey } from '@tempbox/ip'
import { AppError } from '../../errors.js'

/** What a client refused a stream is told to wait: about one long poll's default timeout, when its others may end. */
export const STREAM_RETRY_SECONDS = 30

/** The 429 (sent with Retry-After) for a client holding MAX_STREAMS_PER_CLIENT streams and polls already. */
export function streamsLimitReached(max: number): AppError {
  return new AppError('rate_limited', `Your network already has ${max} live inbox views or waits open. Close one, or try again in ${STREAM_RETRY_SECONDS} seconds.`)
}

/**
 * Open event streams and long polls per client (an IPv4 address or an IPv6 /64), in this process's memory only: each
 * holds a connection, a subscription and timers for as long as it lasts, so one client must not hold hundreds.
 * An entry lives only while the client has one open.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>()

  constructor(private readonly max: number) {}

  /** Takes one of the client's places, or null when all are held; the function returned gives it back (once). */
  take(ip: string): (() => void) | null {
    const key = clientKey(ip)
    const held = this.open.get(key) ?? 0
    if (held >= this.max) return null
    this.open.set(key, held + 1)
    let given = false
    return () => {
      if (given) return
      given = true
      const left = (this.open.get(key) ?? 1) - 1
      if (left > 0) this.open.set(key, left)
      else this.open.delete(key)
    }
  }

  /** Streams and polls open for the client now. */
  count(ip: string): number {
    return this.open.get(clientKey(ip)) ?? 0
  }
}

const slotsByApp = new WeakMap<object, StreamSlots>()

/**
 * Takes a place for a stream or long poll (`/events`, `/wait`, `/code` share them) of the requesting client, or sets
 * Retry-After and throws the 429. Call the function returned when the stream or poll ends, however it ends.
 */
export function takeStreamSlot(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): () => void {
  const max = app.config.maxStreamsPerClient
  // Keyed by the server: each route plugin sees an app object of its own, and the places are the whole app's.
  let slots = slotsByApp.get(app.server)
  if (!slots) slotsByApp.set(app.server, (slots = new StreamSlots(max)))
  const give = slots.take(request.ip)
  if (give) return give
  reply.header('Retry-After', String(STREAM_RETRY_SECONDS))
  throw streamsLimitReached(max)
}
