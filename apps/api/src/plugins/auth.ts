import fp from 'fastify-plugin'
import jwt from '@fastify/jwt'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { UserRow } from '@tempbox/db'
import { AppError } from '../errors.js'
import { findUserById } from '../repositories/user-repository.js'
import { isAdminRole } from '../services/user-fields.js'

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string }
    user: { sub: string }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: 401 unless a valid, unexpired Bearer token names an existing account; sets `request.currentUser`. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
    /** preHandler: `authenticate`, then 403 unless the account is admin or owner. */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
    signToken: (user: Pick<UserRow, 'id'>) => string
  }
  interface FastifyRequest {
    /** The signed-in account when a valid token came with the request, else null (never an error). */
    userId: number | null
    currentUser: UserRow | null
  }
}

const SIGN_IN = 'Please sign in to continue.'
const EXPIRED = 'Your session has expired. Please sign in again.'

/**
 * Bearer-token auth. Tokens carry only the account id; the role is read from the database on every check, so a
 * promotion or a deleted account takes effect at once. HS256 only (no `alg: none`, no key confusion).
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
    app.decorate('signToken', (user: Pick<UserRow, 'id'>) => app.jwt.sign({ sub: String(user.id) }))

    async function userFromToken(request: FastifyRequest): Promise<UserRow | 'expired' | null> {
      const header = request.headers.authorization
      if (!header || !/^Bearer\s+\S+$/i.test(header)) return null
      try {
        const payload = await request.jwtVerify<{ sub: string }>()
        const id = Number(payload.sub)
        if (!Number.isSafeInteger(id)) return null
        return (await findUserById(app.db, id)) ?? null
      } catch (err) {
        return (err as { code?: string }).code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED' ? 'expired' : null
      }
    }

    // Optional identity for routes open to guests (e.g. generating an address while signed in saves it).
    app.addHook('onRequest', async (request) => {
      if (!request.headers.authorization) return
      const user = await userFromToken(request)
      if (user && user !== 'expired') {
        request.currentUser = user
        request.userId = user.id
      }
    })

    app.decorate('authenticate', async (request: FastifyRequest) => {
      if (request.currentUser) return
      const user = await userFromToken(request)
      if (user === 'expired') throw new AppError('unauthorized', EXPIRED)
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
  },
  { name: 'auth', dependencies: ['db'] },
)
