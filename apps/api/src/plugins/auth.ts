import fp from 'fastify-plugin'
import jwt from '@fastify/jwt'
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import type { UserRow } from '@tempbox/db'
import { AppError } from '../errors.js'
import { findUserWithSession } from '../repositories/session-repository.js'
import { isAdminRole } from '../services/accounts/user-fields.js'

declare module '@fastify/jwt' {
  interface FastifyJWT {
    /**
     * `ver`: the account's token version when signed; a token with an older one is refused (revoked). `sid`: the
     * session (auth_session) it belongs to; signing that session out ends the token too.
     */
    payload: { sub: string; ver: number; sid: string }
    user: { sub: string; ver: number; sid: string }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: 401 unless a valid, unexpired Bearer token names an existing account; sets `request.currentUser`. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
    /** preHandler: `authenticate`, then 403 unless the account is admin or owner. */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
    /** preHandler: `authenticate`, then 403 unless the account is an owner. */
    requireOwner: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
    /** An access token of the session `sessionId`, valid ACCESS_TOKEN_TTL. */
    signToken: (user: Pick<UserRow, 'id' | 'token_version'>, sessionId: string) => string
  }
  interface FastifyContextConfig {
    /** Open to guests, but a valid Bearer token, when sent, sets `request.userId` (and `currentUser`, `sessionId`). */
    optionalSignIn?: boolean
  }
  interface FastifyRequest {
    /**
     * The signed-in account when a valid token came with the request, else null (never an error). Set on routes with
     * `config.optionalSignIn` or an `authenticate` check; null elsewhere.
     */
    userId: number | null
    currentUser: UserRow | null
    /** The session of the request's valid access token, else null. */
    sessionId: string | null
  }
}

const SIGN_IN = 'Please sign in to continue.'
const EXPIRED = 'Your session has expired. Please sign in again.'
const REVOKED = 'This session was signed out (password changed or signed out everywhere). Please sign in again.'

/**
 * Bearer-token auth. Short-lived tokens carry the account id, its token version and their session; the row and the
 * session are read by primary key on every check, so a promotion, a deleted account, a raised version or a signed-out
 * session takes effect at once. HS256 only (no `alg: none`, no key confusion). The refresh cookie's plugin is the auth
 * routes' own (routes/auth/index.ts): no other route reads or sets a cookie.
 */
export default fp(
  async (app) => {
    await app.register(jwt, {
      secret: app.config.jwtSecret,
      sign: { algorithm: 'HS256', expiresIn: `${Math.round(app.config.accessTokenTtlMs / 1000)}s` },
      verify: { algorithms: ['HS256'] },
    })
    app.decorateRequest('userId', null)
    app.decorateRequest('currentUser', null)
    app.decorateRequest('sessionId', null)
    app.decorate('signToken', (user: Pick<UserRow, 'id' | 'token_version'>, sessionId: string) =>
      app.jwt.sign({ sub: String(user.id), ver: user.token_version, sid: sessionId }),
    )

    async function userFromToken(request: FastifyRequest): Promise<{ user: UserRow; sessionId: string } | 'expired' | 'revoked' | null> {
      const header = request.headers.authorization
      if (!header || !/^Bearer\s+\S+$/i.test(header)) return null
      try {
        const payload = await request.jwtVerify<{ sub: string; ver?: unknown; sid?: unknown }>()
        const id = Number(payload.sub)
        if (!Number.isSafeInteger(id)) return null
        // Long-lived tokens from before sessions carry no `sid`: they no longer work.
        if (typeof payload.sid !== 'string') return 'revoked'
        const found = await findUserWithSession(app.db, id, payload.sid, Date.now())
        if (!found) return null
        return payload.ver === found.user.token_version && found.open ? { user: found.user, sessionId: payload.sid } : 'revoked'
      } catch (err) {
        return (err as { code?: string }).code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED' ? 'expired' : null
      }
    }

    // Optional identity for the routes open to guests that use it (generating an address while signed in saves it),
    // and only those: a poll runs no auth hook at all. Not async: no token costs one header lookup, no promise.
    const optionalSignIn: onRequestHookHandler = (request, _reply, done) => {
      if (!request.headers.authorization) return done()
      userFromToken(request).then((found) => {
        if (typeof found === 'object' && found !== null) signIn(request, found)
        done()
      }, done)
    }
    app.addHook('onRoute', (route) => {
      if (route.config?.optionalSignIn !== true) return
      const own = Array.isArray(route.onRequest) ? route.onRequest : route.onRequest ? [route.onRequest] : []
      route.onRequest = [optionalSignIn, ...own]
    })

    app.decorate('authenticate', async (request: FastifyRequest) => {
      if (request.currentUser) return
      const found = await userFromToken(request)
      if (found === 'expired') throw new AppError('unauthorized', EXPIRED)
      if (found === 'revoked') throw new AppError('unauthorized', REVOKED)
      if (!found) throw new AppError('unauthorized', SIGN_IN)
      signIn(request, found)
    })

    function signIn(request: FastifyRequest, { user, sessionId }: { user: UserRow; sessionId: string }): void {
      request.currentUser = user
      request.userId = user.id
      request.sessionId = sessionId
    }

    app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
      await app.authenticate(request, reply)
      if (!isAdminRole(request.currentUser?.role)) {
        throw new AppError('forbidden', 'Only admins and owners can view analytics data.')
      }
    })

    app.decorate('requireOwner', async (request: FastifyRequest, reply: FastifyReply) => {
      await app.authenticate(request, reply)
      if (request.currentUser?.role !== 'owner') throw new AppError('forbidden', 'Only an owner can change roles.')
    })
  },
  { name: 'auth', dependencies: ['db'] },
)
