import { createHash, timingSafeEqual } from 'node:crypto'
import type { Db, UserRow } from '@tempbox/db'
import type { PromoteOwnerResponse, SetupStatusResponse } from '@tempbox/types'
import { AppError } from '../../errors.js'
import { isOwnerSetupDone, promoteFirstOwner } from '../../repositories/user-repository.js'
import { normaliseEmail, toPublicUser } from './user-fields.js'

export const SETUP_CLOSED = 'Setup is complete: this site already has an owner.'

/**
 * Owner setup (spec §2 /admin-setup), open until the first owner is made and then closed for good (a stored fact,
 * not "no owner right now": deleting the owner's account must not reopen it). While open the page shows the key, as
 * the spec requires, but only to a browser on the server's own machine and only where `showKey` is on (off in
 * production): anyone else reads "the key is in the server log", where the api prints it at start.
 */
export class SetupService {
  constructor(
    private readonly db: Db,
    private readonly setupKey: string,
    private readonly showKey: boolean,
  ) {}

  async isOpen(): Promise<boolean> {
    return !(await isOwnerSetupDone(this.db))
  }

  /** `loopback`: the request comes from this machine (see isLoopbackClient), not merely through a proxy on it. */
  async status(loopback: boolean): Promise<SetupStatusResponse> {
    if (!(await this.isOpen())) return { open: false }
    return this.showKey && loopback ? { open: true, secretKey: this.setupKey } : { open: true, keyInLog: true }
  }

  /** Only the signed-in account can be promoted: a key alone must not make someone else's account owner. */
  async promote(signedIn: UserRow, input: { email: string; secretKey: string }): Promise<PromoteOwnerResponse> {
    const email = normaliseEmail(input.email)
    if (email === '' || input.secretKey === '') {
      throw new AppError('validation_failed', 'Please fill all fields', {
        ...(email === '' ? { email: 'Email is required.' } : {}),
        ...(input.secretKey === '' ? { secretKey: 'Secret key is required.' } : {}),
      })
    }
    if (!(await this.isOpen())) throw new AppError('setup_closed', SETUP_CLOSED)
    if (email !== signedIn.email) {
      throw new AppError('forbidden', `You can only promote the account you are signed in with (${signedIn.email}).`, {
        email: 'Use the email of the account you are signed in with.',
      })
    }
    if (!sameKey(input.secretKey, this.setupKey)) throw new AppError('invalid_setup_key', 'The secret key is not correct.')
    const result = await promoteFirstOwner(this.db, signedIn.id, Date.now())
    if (result === 'closed') throw new AppError('setup_closed', SETUP_CLOSED)
    if (result === 'missing') throw new AppError('user_not_found', 'This account no longer exists.')
    return { success: true, message: 'You have been promoted to Owner. Now you can access Analytics.', user: toPublicUser(result) }
  }
}

/** Hashing first gives equal-length inputs, so the comparison time says nothing about the key. */
function sameKey(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

/**
 * The line to print once at start while setup is open: the page shows the key to no one but a browser on this machine,
 * so for everyone else the log is the only way to read it. Null when there is nothing to print.
 */
export async function setupKeyNotice(db: Db, config: { adminSetupKey: string }): Promise<string | null> {
  if (await isOwnerSetupDone(db)) return null
  return `[setup] Owner setup is open. Sign in at /admin-setup and enter this setup key: ${config.adminSetupKey}`
}
