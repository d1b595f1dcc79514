import fp from 'fastify-plugin'
import jwt from '@fastify/jwt'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { UserRow } from '@tempbox/db'
import { AppError } from '../errors.js'
import { findUserById } from '../repositories/user-repository.js'
import { isAdminRole } from '../services/accounts/user-fields.js'

declare module '@fastify/jwt' {
  interface FastifyJWT {
    /** `ver`: the account's token version when signed; a token with an older one is refused (revoked). */
    payload: { sub: string; ver: number }
    user: { sub: string; ver: number }
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
    signToken: (user: Pick<UserRow, 'id' | 'token_version'>) => string
  }
  interface FastifyRequest {
    /** The signed-in account when a valid token came with the request, else null (never an error). */
    userId: number | null
    currentUser: UserRow | null
  }
}

const SIGN_IN = 'Please sign in to continue.'
const EXPIRED = 'Your session has expired. Please sign in again.'
const REVOKED = 'This session was signed out (password changed or signed out everywhere). Please sign in again.'

/**
 * Bearer-token auth. Tokens carry the account id and its token version; the row is read by primary key on every
 * check (the one read a request pays), so a promotion, a deleted account or a raised version takes effect at once.
 * HS256 only (no `alg: none`, no key confusion).
 */
export default fp(
  async (app) => {
    await app.register(jwt, {
      secret: app.config.jwtSecret,
      sign: { algorithm: 'HS256', expiresIn: app.config.jwtExpiresIn },
      verify: { algorithms: ['HS256'] },
    })
    app.decorateRequest('userId', null)
    app.decorateRequest('currentUser', null)
    app.decorate('signToken', (user: Pick<UserRow, 'id' | 'token_version'>) => app.jwt.sign({ sub: String(user.id), ver: user.token_version }))

    async function userFromToken(request: FastifyRequest): Promise<UserRow | 'expired' | 'revoked' | null> {
      const header = request.headers.authorization
      if (!header || !/^Bearer\s+\S+$/i.test(header)) return null
      try {
        const payload = await request.jwtVerify<{ sub: string; ver?: unknown }>()
        const id = Number(payload.sub)
        if (!Number.isSafeInteger(id)) return null
        const user = await findUserById(app.db, id)
        if (!user) return null
        // Tokens from before versions existed carry none: they count as version 0, revoked by the first raise.
        const version = payload.ver === undefined ? 0 : payload.ver
        return version === user.token_version ? user : 'revoked'
      } catch (err) {
        return (err as { code?: string }).code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED' ? 'expired' : null
      }
    }

    // Optional identity for routes open to guests (e.g. generating an address while signed in saves it).
    app.addHook('onRequest', async (request) => {
      if (!request.headers.authorization) return
      const user = await userFromToken(request)
      if (typeof user === 'object' && user !== null) {
        request.currentUser = user
        request.userId = user.id
      }
    })

    app.decorate('authenticate', async (request: FastifyRequest) => {
      if (request.currentUser) return
      const user = await userFromToken(request)
      if (user === 'expired') throw new AppError('unauthorized', EXPIRED)
      if (user === 'revoked') throw new AppError('unauthorized', REVOKED)
      if (!user) throw new AppError('unauthorized', SIGN_IN)
      request.currentUser = user
      request.userId = user.id
    })

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
