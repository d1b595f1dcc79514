import { createHash, randomBytes } from 'node:crypto'
import type { Db, UserRow } from '@tempbox/db'
import type { AuthResponse } from '@tempbox/types'
import { AppError } from '../../errors.js'
import {
  deleteSession,
  findSessionWithUser,
  insertSession,
  pruneSessions,
  rotateSessionSecret,
} from '../../repositories/session-repository.js'
import { toPublicUser } from './user-fields.js'

/** Signs an access token naming the account, its token version and the session (`sid`). */
export type SignAccess = (user: UserRow, sessionId: string) => string

export interface SessionTimes {
  accessTokenTtlMs: number
  refreshTokenTtlMs: number
  maxSessionsPerAccount: number
}

/** What a sign-in or a renewal hands the browser: the JSON answer, and the refresh cookie's value and end. */
export interface IssuedSession {
  response: AuthResponse
  refresh: { value: string; expiresAt: number }
}

export const RENEW_REFUSED = 'Your session has ended. Please sign in again.'

/**
 * Sessions of signed-in browsers (table auth_session). A session lasts `refreshTokenTtlMs` from sign-in; its access
 * tokens `accessTokenTtlMs` each. The refresh cookie is `<id>.<secret>`; each renewal replaces the secret, so a copied
 * cookie stops working at the owner's next renewal.
 */
export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly sign: SignAccess,
    private readonly times: SessionTimes,
  ) {}

  async start(user: UserRow, now = Date.now()): Promise<IssuedSession> {
    const id = randomBytes(16).toString('base64url')
    const secret = randomBytes(32).toString('base64url')
    const expiresAt = now + this.times.refreshTokenTtlMs
    await insertSession(this.db, { id, user_id: user.id, secret_hash: hash(secret), token_version: user.token_version, created_at: now, expires_at: expiresAt })
    await pruneSessions(this.db, user.id, this.times.maxSessionsPerAccount)
    return this.issue(user, id, secret, expiresAt, now)
  }

  /** A fresh access token and cookie for a refresh cookie; 401 when it names no open session of a current account. */
  async renew(cookie: string | undefined, now = Date.now()): Promise<IssuedSession> {
    const parsed = parseCookie(cookie)
    if (!parsed) throw refused()
    const found = await findSessionWithUser(this.db, parsed.id)
    if (!found) throw refused()
    const { session, user } = found
    if (session.expires_at <= now || session.token_version !== user.token_version) {
      await deleteSession(this.db, session.id)
      throw refused()
    }
    const secret = randomBytes(32).toString('base64url')
    if (!(await rotateSessionSecret(this.db, session.id, hash(parsed.secret), hash(secret)))) throw refused()
    return this.issue(user, session.id, secret, session.expires_at, now)
  }

  /** Ends the session the refresh cookie names (only with its current secret) and the one an access token names. */
  async end(cookie: string | undefined, accessSessionId: string | null): Promise<void> {
    if (accessSessionId) await deleteSession(this.db, accessSessionId)
    const parsed = parseCookie(cookie)
    if (!parsed || parsed.id === accessSessionId) return
    const found = await findSessionWithUser(this.db, parsed.id)
    if (found && found.session.secret_hash === hash(parsed.secret)) await deleteSession(this.db, parsed.id)
  }

  private issue(user: UserRow, id: string, secret: string, refreshExpiresAt: number, now: number): IssuedSession {
    return {
      response: { token: this.sign(user, id), user: toPublicUser(user), expiresAt: new Date(now + this.times.accessTokenTtlMs).toISOString() },
      refresh: { value: `${id}.${secret}`, expiresAt: refreshExpiresAt },
    }
  }
}

function hash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

function parseCookie(cookie: string | undefined): { id: string; secret: string } | null {
  const match = cookie ? /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(cookie) : null
  return match ? { id: match[1]!, secret: match[2]! } : null
}

function refused(): AppError {
  return new AppError('unauthorized', RENEW_REFUSED)
}
