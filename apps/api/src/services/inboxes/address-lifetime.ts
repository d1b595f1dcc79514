import type { Db, InboxRow } from '@tempbox/db'
import type { AddressLifetime } from '@tempbox/types'
import type { Config } from '../../config.js'
import { AppError } from '../../errors.js'
import { setInboxLifetime } from '../../repositories/burn-repository.js'
import type { InboxService } from './inbox-service.js'

const DAY_MS = 86_400_000

export interface Burn {
  mode: InboxRow['burn']
  /** Minutes from now for a timer; null otherwise. */
  minutes: number | null
}

/** The burn a request asks for (the schema has bounded the minutes); both kinds at once is a contradiction. */
export function burnOf(input: { burnAfterRead?: boolean; burnAfterMinutes?: number }): Burn {
  const minutes = input.burnAfterMinutes ?? null
  if (input.burnAfterRead === true && minutes !== null) {
    throw new AppError('validation_failed', 'Choose one: delete the address after its first message is read, or after a number of minutes — not both.', {
      burnAfterMinutes: 'Leave this out when burnAfterRead is true.',
    })
  }
  if (input.burnAfterRead === true) return { mode: 'read', minutes: null }
  return minutes === null ? { mode: null, minutes: null } : { mode: 'timer', minutes }
}

/**
 * Changing when a live address ends, after it was made: burning it early (anyone holding the address may, as they may
 * release it) or keeping a saved one longer (only its signed-in owner, up to SAVED_ADDRESS_MAX_DAYS from creation).
 */
export class AddressLifetimeService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly inboxes: InboxService,
  ) {}

  async setBurn(rawAddress: string, input: { burnAfterRead?: boolean; burnAfterMinutes?: number }, now = Date.now()): Promise<AddressLifetime> {
    const burn = burnOf(input)
    const inbox = await this.inboxes.getInbox(rawAddress)
    const usual = inbox.created_at + this.config.addressTtlMs
    // Turning burning off gives back the usual lifetime, never more than an owner's extension already granted.
    const expiresAt = burn.minutes !== null ? now + burn.minutes * 60_000 : burn.mode === 'read' ? inbox.expires_at : Math.max(inbox.expires_at, usual)
    return this.update(inbox, burn.mode, expiresAt, now)
  }

  async extend(rawAddress: string, userId: number | undefined, days: number, now = Date.now()): Promise<AddressLifetime> {
    if (userId === undefined) throw new AppError('unauthorized', 'Sign in to keep an address longer than a day.')
    const maxDays = this.config.savedAddressMaxMs / DAY_MS
    if (days > maxDays) {
      throw new AppError('validation_failed', `A saved address can be kept for at most ${maxDays} days from its creation.`, {
        days: `At most ${maxDays}.`,
      })
    }
    const inbox = await this.inboxes.getInbox(rawAddress)
    if (inbox.user_id !== userId) {
      throw new AppError('forbidden', 'Only the account this address is saved to can keep it longer. Save it to your account first.')
    }
    const expiresAt = inbox.created_at + days * DAY_MS
    if (expiresAt <= now) {
      throw new AppError('validation_failed', `This address is already older than ${days} ${days === 1 ? 'day' : 'days'}; choose more days.`, {
        days: 'Choose more days.',
      })
    }
    // Kept longer means not burned: the owner chose to keep it.
    return this.update(inbox, null, expiresAt, now)
  }

  private async update(inbox: InboxRow, burn: InboxRow['burn'], expiresAt: number, now: number): Promise<AddressLifetime> {
    const row = await setInboxLifetime(this.db, inbox.id, burn, expiresAt, now)
    // The cached row holds the old lifetime; the next read takes the new one from the database.
    this.inboxes.forgetInboxes([inbox])
    if (!row) throw new AppError('inbox_not_found', 'This address does not exist or has expired. Generate a new one.')
    return { email: row.address, expiresAt: new Date(row.expires_at).toISOString(), burn: row.burn }
  }
}
