import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AuthResponse, ErrorBody, SuccessResponse } from '@tempbox/types'
import { AppError } from '../../errors.js'
import { clearRefreshCookie, REFRESH_COOKIE, REFRESH_HEADER, sendSession } from './refresh-cookie.js'

/** Per IP: a renewal costs a write, and a browser renews once per access token (15 minutes by default). */
const REFRESH_LIMIT = { max: 60, timeWindow: '15 minutes' }

/** Renewing the access token with the refresh cookie, and signing this browser out. */
const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sessions = app.sessionService

  app.post(
    '/auth/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'A fresh access token for the refresh cookie (needs the X-Tempbox-Refresh: 1 header); the cookie is replaced',
        response: { 200: AuthResponse, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
      },
      config: { rateLimit: REFRESH_LIMIT },
    },
    async (request, reply) => {
      if (request.headers[REFRESH_HEADER] !== '1') {
        throw new AppError('forbidden', 'Renewing a session needs the X-Tempbox-Refresh: 1 header, which only the Tempbox web app sends.')
      }
      try {
        return sendSession(reply, await sessions.renew(request.cookies[REFRESH_COOKIE]))
      } catch (err) {
        clearRefreshCookie(reply)
        throw err
      }
    },
  )

  app.post(
    '/auth/sign-out',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign this browser out: its access token and refresh cookie stop working (other devices stay signed in)',
        response: { 200: SuccessResponse },
      },
      // Its access token's session ends too, when one comes.
      config: { optionalSignIn: true },
    },
    async (request, reply) => {
      await sessions.end(request.cookies[REFRESH_COOKIE], request.sessionId)
      clearRefreshCookie(reply)
      return { success: true, message: 'You have been signed out.' }
    },
  )
}

export default sessionRoutes
