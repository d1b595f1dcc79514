import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { clientKey } from '@tempbox/ip'
import type { MissLimits } from '../service-state/shared-state.js'

/** Blocked clients this process remembers per scope; more are still refused, by asking the shared counter again. */
const MAX_REMEMBERED_BLOCKS = 10_000
/** Error bodies are a sentence and a code; anything longer is not one of ours and is never parsed. */
const MAX_ERROR_BODY_CHARS = 4096

export interface GuessLimitOptions {
  /** Names the counter: inbox guesses and short-link guesses are limited apart. Contexts sharing a scope share blocks. */
  scope: string
  /** The sentence a blocked client reads. */
  message: string
  /**
   * Which requests a blocked client is refused (429), hits included: a hit among the refusals would still answer the
   * guess. Runs after the body is parsed, so a request can be judged by what it asks for.
   */
  appliesTo: (request: FastifyRequest) => boolean
  /**
   * Whether an answer told the client that a name it guessed does not exist (or, for a name it tried to take, that
   * it does): only these count. `code` is the error body's code, when the answer is one of our errors.
   */
  isMiss: (request: FastifyRequest, reply: FastifyReply, code: string | undefined) => boolean
}

/**
 * Blocks known to this process, per shared counter and scope: the inbox routes and the account's "save an address"
 * route are separate plugin contexts guarding the same names, and a block earned on one must close the other.
 */
const blocksByState = new WeakMap<MissLimits, Map<string, Map<string, number>>>()

function blocksOf(limits: MissLimits, scope: string): Map<string, number> {
  let scopes = blocksByState.get(limits)
  if (!scopes) blocksByState.set(limits, (scopes = new Map()))
  let blocks = scopes.get(scope)
  if (!blocks) scopes.set(scope, (blocks = new Map()))
  return blocks
}

/** The clients this process knows to be blocked in `scope` (key: clientKey, value: until when), for a caller to read. */
export function blockedClients(limits: MissLimits, scope: string): ReadonlyMap<string, number> {
  return blocksOf(limits, scope)
}

/**
 * Makes guessing names cost: every miss a client gets from these routes is counted (app.sharedState.missLimits,
 * shared by all API processes), and past the limit it gets 429 with Retry-After on the routes `appliesTo` names. A
 * client asking only for names it knows never misses — a deleted message of its own inbox is not a miss — so it is
 * never slowed. Hooks go on `app`'s own context, so only the routes registered in it are covered.
 */
export function limitGuesses(app: FastifyInstance, options: GuessLimitOptions): void {
  const { scope, message, appliesTo, isMiss } = options
  // Blocks this process has been told of, so a blocked client's requests are refused without asking the primary.
  const blockedUntil = blocksOf(app.sharedState.missLimits, scope)

  const refuse = (reply: FastifyReply, waitMs: number) => {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000))
    reply.code(429).header('Retry-After', String(seconds)).type('application/json; charset=utf-8')
    return JSON.stringify({ error: message.replace('{seconds}', String(seconds)), code: 'rate_limited' })
  }

  // Not async: a client that is not blocked and gets no error answer (every poll) costs a size and a status check.
  app.addHook('preHandler', (request, reply, done) => {
    if (blockedUntil.size === 0 || !appliesTo(request)) return done()
    const key = clientKey(request.ip)
    const until = blockedUntil.get(key)
    if (until === undefined) return done()
    const now = Date.now()
    if (until <= now) {
      blockedUntil.delete(key)
      return done()
    }
    reply.send(refuse(reply, until - now))
  })

  const countMiss = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const key = clientKey(request.ip)
    const now = Date.now()
    const waitMs = await app.sharedState.missLimits.miss(scope, key, now)
    if (waitMs <= 0) return payload
    if (blockedUntil.size >= MAX_REMEMBERED_BLOCKS) {
      for (const [k, t] of blockedUntil) if (t <= now) blockedUntil.delete(k)
      if (blockedUntil.size >= MAX_REMEMBERED_BLOCKS) blockedUntil.delete(blockedUntil.keys().next().value!)
    }
    blockedUntil.set(key, now + waitMs)
    reply.removeHeader('content-length')
    return refuse(reply, waitMs)
  }

  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode < 400 || reply.statusCode === 429 || !isMiss(request, reply, errorCode(payload))) return done(null, payload)
    countMiss(request, reply, payload).then((sent) => done(null, sent), (err: Error) => done(err))
  })
}

/** The `code` of one of our JSON error bodies (errors are serialized before onSend), else undefined. */
function errorCode(payload: unknown): string | undefined {
  if (typeof payload !== 'string' || payload.length > MAX_ERROR_BODY_CHARS || !payload.startsWith('{')) return undefined
  try {
    const code = (JSON.parse(payload) as { code?: unknown }).code
    return typeof code === 'string' ? code : undefined
  } catch {
    return undefined
  }
}

/**
 * Inbox names: an address unknown or expired (404 inbox_not_found), and a name someone tried to take or save that
 * another holds (409 address_taken), both tell a guesser whether an address is live. A message, attachment or webhook
 * missing from a live inbox does not: only its holder gets that far.
 */
const INBOX_MISS_CODES = new Set(['inbox_not_found', 'address_taken'])

export const INBOX_GUESSES: Pick<GuessLimitOptions, 'scope' | 'message' | 'isMiss'> = {
  scope: 'inbox',
  message: 'Too many addresses that do not exist were asked for from your network. Please try again in {seconds} seconds.',
  isMiss: (_request, _reply, code) => code !== undefined && INBOX_MISS_CODES.has(code),
}
