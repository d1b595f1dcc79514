import type { FastifyReply } from 'fastify'
import type { IssuedSession } from '../../services/accounts/session-service.js'

/** The refresh cookie: httpOnly (no script reads it), Secure, SameSite=Strict, sent only to /api/auth. */
export const REFRESH_COOKIE = 'tempbox_refresh'
/** Renewal needs this header too: a cross-site form or image cannot set it, and a cross-site fetch must preflight. */
export const REFRESH_HEADER = 'x-tempbox-refresh'

// Browsers keep Secure cookies over plain http on loopback (a potentially trustworthy origin), so dev works as is.
const OPTIONS = { httpOnly: true, secure: true, sameSite: 'strict', path: '/api/auth' } as const

/** Sets the session's refresh cookie and answers the session's JSON (token, user, expiresAt). */
export function sendSession(reply: FastifyReply, session: IssuedSession) {
  reply.header('Cache-Control', 'no-store')
  reply.setCookie(REFRESH_COOKIE, session.refresh.value, { ...OPTIONS, expires: new Date(session.refresh.expiresAt) })
  return session.response
}

export function clearRefreshCookie(reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, OPTIONS)
}
