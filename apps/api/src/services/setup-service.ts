import { createHash, timingSafeEqual } from 'node:crypto'
import type { Db } from '@tempbox/db'
import type { PromoteOwnerResponse, SetupStatusResponse } from '@tempbox/types'
import { AppError } from '../errors.js'
import { ownerExists, promoteToOwnerIfNone } from '../repositories/user-repository.js'
import { normaliseEmail, toPublicUser } from './user-fields.js'

export const SETUP_CLOSED = 'Setup is complete: this site already has an owner.'

/**
 * Owner setup (spec §2 /admin-setup). The page shows the key, as the spec requires, but only while no owner exists;
 * once someone is owner the key is never returned again and promotion is closed.
 */
export class SetupService {
  constructor(
    private readonly db: Db,
    private readonly setupKey: string,
  ) {}

  async status(): Promise<SetupStatusResponse> {
    if (await ownerExists(this.db)) return { open: false }
    return { open: true, secretKey: this.setupKey }
  }

  async promote(input: { email: string; secretKey: string }): Promise<PromoteOwnerResponse> {
    const email = normaliseEmail(input.email)
    if (email === '' || input.secretKey === '') {
      throw new AppError('validation_failed', 'Please fill all fields', {
        ...(email === '' ? { email: 'Email is required.' } : {}),
        ...(input.secretKey === '' ? { secretKey: 'Secret key is required.' } : {}),
      })
    }
    if (await ownerExists(this.db)) throw new AppError('setup_closed', SETUP_CLOSED)
    if (!sameKey(input.secretKey, this.setupKey)) throw new AppError('invalid_setup_key', 'The secret key is not correct.')
    const result = await promoteToOwnerIfNone(this.db, email)
    if (result === 'closed') throw new AppError('setup_closed', SETUP_CLOSED)
    if (result === 'missing') throw new AppError('user_not_found', 'No account uses this email. Create an account first, then try again.')
    return { success: true, message: 'You have been promoted to Owner. Now you can access Analytics.', user: toPublicUser(result) }
  }
}

/** Hashing first gives equal-length inputs, so the comparison time says nothing about the key. */
function sameKey(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}
