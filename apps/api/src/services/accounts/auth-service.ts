import argon2 from 'argon2'
import type { Db, UserRow } from '@tempbox/db'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLES, type ChangeRoleResponse, type PublicUser, type SavedAddress } from '@tempbox/types'
import { AppError } from '../../errors.js'
import { changeUserRole, deleteUserCascade, findUserByEmail, insertUser, listLiveInboxesOfUser, raiseTokenVersion } from '../../repositories/user-repository.js'
import type { LoginFailures } from '../../service-state/shared-state.js'
import type { PasswordHashCost } from './password-hash-cost.js'
import type { IssuedSession, SessionService } from './session-service.js'
import { emailProblem, normaliseEmail, toPublicUser } from './user-fields.js'

const USERNAME_MAX_LENGTH = 50
export const INVALID_CREDENTIALS = 'Invalid email or password'

export class AuthService {
  /** Verified when the email is unknown, so a failed login costs the same whether or not the account exists. */
  private dummyHash: Promise<string> | null = null
  private readonly hashOptions: argon2.Options & { raw?: false }

  constructor(
    private readonly db: Db,
    private readonly sessions: SessionService,
    /** Failed sign-ins per account, counted under `accountKey(email)` so unknown accounts count alike. */
    private readonly failures: LoginFailures,
    private readonly accountKey: (normalisedEmail: string) => string,
    /** New hashes only: a stored hash names its own cost, and is verified with it. */
    cost: PasswordHashCost,
  ) {
    this.hashOptions = { type: argon2.argon2id, memoryCost: cost.memoryKib, timeCost: cost.passes, parallelism: 1 }
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= argon2.hash('not-a-real-password-' + Math.random(), this.hashOptions)
    return this.dummyHash
  }

  async register(input: { email: string; password: string; username?: string | null }): Promise<IssuedSession> {
    const email = normaliseEmail(input.email)
    const username = input.username?.trim() || null
    const fields: Record<string, string> = {}
    const emailError = emailProblem(email)
    if (emailError) fields.email = emailError
    const passwordError = newPasswordProblem(input.password)
    if (passwordError) fields.password = passwordError
    if (username && username.length > USERNAME_MAX_LENGTH) fields.username = `Username must be at most ${USERNAME_MAX_LENGTH} characters.`
    throwIfInvalid(fields)

    if (await findUserByEmail(this.db, email)) throw emailTaken()
    const passwordHash = await argon2.hash(input.password, this.hashOptions)
    const row = await insertUser(this.db, { email, username, password_hash: passwordHash, role: 'user', created_at: Date.now() })
    if (!row) throw emailTaken()
    return this.sessions.start(row)
  }

  /**
   * Past LOGIN_FAILURES_PER_ACCOUNT failures in 15 minutes every sign-in to the email is refused, the right password
   * too, with the wrong password's answer after the same argon2 verify: nothing tells a throttled account, an
   * unknown one and a wrong password apart.
   */
  async login(input: { email: string; password: string }, now = Date.now()): Promise<IssuedSession> {
    const email = normaliseEmail(input.email)
    const fields: Record<string, string> = {}
    if (email === '') fields.email = 'Email is required.'
    if (input.password === '') fields.password = 'Password is required.'
    throwIfInvalid(fields)

    const account = this.accountKey(email)
    const blocked = (await this.failures.blocked(account, now)) > 0
    const row = email.length <= 254 ? await findUserByEmail(this.db, email) : undefined
    const password = input.password.slice(0, PASSWORD_MAX_LENGTH + 1)
    const ok = await argon2.verify(row ? row.password_hash : await this.dummy(), password).catch(() => false)
    if (!row || !ok || blocked) {
      if (!ok || !row) await this.failures.fail(account, now)
      throw new AppError('invalid_credentials', INVALID_CREDENTIALS)
    }
    return this.sessions.start(row)
  }

  /**
   * Checks the current password, stores the new one and raises the token version in one statement: every token signed
   * before (a stolen one included) stops working, every session ends, and this browser gets a new one.
   */
  async changePassword(user: UserRow, input: { currentPassword: string; newPassword: string }): Promise<IssuedSession> {
    const fields: Record<string, string> = {}
    if (input.currentPassword === '') fields.currentPassword = 'Current password is required.'
    const passwordError = newPasswordProblem(input.newPassword)
    if (passwordError) fields.newPassword = passwordError
    else if (input.newPassword === input.currentPassword) fields.newPassword = 'The new password must differ from the current one.'
    throwIfInvalid(fields)

    const ok = await argon2.verify(user.password_hash, input.currentPassword.slice(0, PASSWORD_MAX_LENGTH + 1)).catch(() => false)
    if (!ok) throw new AppError('wrong_password', 'The current password is not correct.', { currentPassword: 'The current password is not correct.' })
    const row = await raiseTokenVersion(this.db, user.id, await argon2.hash(input.newPassword, this.hashOptions))
    if (!row) throw new AppError('user_not_found', 'This account no longer exists.')
    return this.sessions.start(row)
  }

  /** Revokes every token of the account, this session's included. */
  async signOutEverywhere(userId: number): Promise<void> {
    if (!(await raiseTokenVersion(this.db, userId))) throw new AppError('user_not_found', 'This account no longer exists.')
  }

  /** Owners only (the route checks): gives an account a role. The last owner can't give theirs away. */
  async changeRole(input: { email: string; role: string }): Promise<ChangeRoleResponse> {
    const email = normaliseEmail(input.email)
    const role = input.role.trim().toLowerCase()
    const fields: Record<string, string> = {}
    if (email === '') fields.email = 'Email is required.'
    if (!(ROLES as readonly string[]).includes(role)) fields.role = `Role must be one of: ${ROLES.join(', ')}.`
    throwIfInvalid(fields)
    const result = await changeUserRole(this.db, email, role)
    if (result === 'missing') throw new AppError('user_not_found', 'No account uses this email.')
    if (result === 'last_owner') {
      throw new AppError('last_owner', 'This is the only owner: make another account owner first, or setup could never make one again.')
    }
    const user: PublicUser = toPublicUser(result)
    return { success: true, message: `${user.email} is now ${role}.`, user }
  }

  /**
   * Removes the account with its addresses and their mail, once its password is given (a borrowed or stolen session
   * alone cannot); returns the removed inboxes so caches can forget them.
   */
  async deleteAccount(user: UserRow, input: { password: string }): Promise<{ id: number; address: string }[]> {
    if (input.password === '') throw new AppError('validation_failed', 'Please enter your password to delete the account.', { password: 'Please enter your password to delete the account.' })
    const ok = await argon2.verify(user.password_hash, input.password.slice(0, PASSWORD_MAX_LENGTH + 1)).catch(() => false)
    if (!ok) throw new AppError('wrong_password', 'The password is not correct: the account was not deleted.', { password: 'The password is not correct.' })
    const { deleted, inboxes } = await deleteUserCascade(this.db, user.id)
    if (!deleted) throw new AppError('user_not_found', 'This account no longer exists.')
    return inboxes
  }

  async savedAddresses(userId: number, now = Date.now()): Promise<SavedAddress[]> {
    const rows = await listLiveInboxesOfUser(this.db, userId, now)
    return rows.map((r) => ({
      email: r.address,
      createdAt: new Date(r.created_at).toISOString(),
      expiresAt: new Date(r.expires_at).toISOString(),
    }))
  }

  /** Warms the dummy hash so the first failed login isn't slower than the rest. */
  async warm(): Promise<void> {
    await this.dummy()
  }
}

function emailTaken(): AppError {
  return new AppError('email_taken', 'An account with this email already exists.', { email: 'An account with this email already exists.' })
}

/** Spec §5: at least 6 characters; the cap keeps argon2's input bounded. */
function newPasswordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`
  if (password.length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`
  return null
}

function throwIfInvalid(fields: Record<string, string>): void {
  const first = Object.values(fields)[0]
  if (first) throw new AppError('validation_failed', first, fields)
}
