import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { clientKey } from '@tempbox/ip'

/** Blocked clients this process remembers per scope; more are still refused, by asking the shared counter again. */
const MAX_REMEMBERED_BLOCKS = 10_000

export interface GuessLimitOptions {
  /** Names the counter: inbox guesses and short-link guesses are limited apart. */
  scope: string
  /** The sentence a blocked client reads. */
  message: string
  /** Which of the context's routes take a guessed name (others are neither counted nor refused). */
  appliesTo: (request: FastifyRequest) => boolean
}

/**
 * Makes guessing names cost: every 404 a client gets from these routes is counted (app.globalState.missLimits, shared
 * by all API processes), and past the limit it gets 429 with Retry-After on these routes — hits included, or a hit
 * among the refusals would still answer the guess. A client asking only for names it knows never misses, so is
 * never slowed. Hooks go on `app`'s own context, so only the routes registered in it are covered.
 */
export function limitGuesses(app: FastifyInstance, options: GuessLimitOptions): void {
  const { scope, message, appliesTo } = options
  // Blocks this process has been told of, so a blocked client's requests are refused without asking the primary.
  const blockedUntil = new Map<string, number>()

  const refuse = (reply: FastifyReply, waitMs: number) => {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000))
    reply.code(429).header('Retry-After', String(seconds)).type('application/json; charset=utf-8')
    return JSON.stringify({ error: message.replace('{seconds}', String(seconds)), code: 'rate_limited' })
  }

  app.addHook('onRequest', async (request, reply) => {
    if (!appliesTo(request)) return
    const key = clientKey(request.ip)
    const until = blockedUntil.get(key)
    if (until === undefined) return
    const now = Date.now()
    if (until <= now) {
      blockedUntil.delete(key)
      return
    }
    return reply.send(refuse(reply, until - now))
  })

  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 404 || !appliesTo(request)) return payload
    const key = clientKey(request.ip)
    const now = Date.now()
    const waitMs = await app.globalState.missLimits.miss(scope, key, now)
    if (waitMs <= 0) return payload
    if (blockedUntil.size >= MAX_REMEMBERED_BLOCKS) {
      for (const [k, t] of blockedUntil) if (t <= now) blockedUntil.delete(k)
      if (blockedUntil.size >= MAX_REMEMBERED_BLOCKS) blockedUntil.delete(blockedUntil.keys().next().value!)
    }
    blockedUntil.set(key, now + waitMs)
    reply.removeHeader('content-length')
    return refuse(reply, waitMs)
  })
}
