import type { Db, InboxRow } from '@tempbox/db'
import type { AddressLifetime } from '@tempbox/types'
import type { Config } from '../../config.js'
import { AppError } from '../../errors.js'
import { setInboxLifetime, type InboxLifetime } from '../../repositories/burn-repository.js'
import { findInboxByAddress } from '../../repositories/inbox-repository.js'
import type { InboxService } from './inbox-service.js'
import { requestedBurn, type Burn } from './burn-request.js'
import { inboxNotFound } from './not-found.js'

const DAY_MS = 86_400_000

/**
 * How an address ends after a burn request. A timer only ever shortens: its end is never later than the end before
 * the call. Turning burning off gives back the end the address had before its first timer (kept in
 * unburned_expires_at) and never a later one; an address made with a timer keeps its timer's end.
 */
export function lifetimeAfterBurn(inbox: InboxRow, burn: Burn, now: number): InboxLifetime {
  const current = inbox.expires_at
  const unburned = inbox.unburned_expires_at
  if (burn.minutes !== null) return { burn: 'timer', expiresAt: Math.min(current, now + burn.minutes * 60_000), unburnedExpiresAt: unburned ?? current }
  if (burn.mode === 'read') return { burn: 'read', expiresAt: current, unburnedExpiresAt: unburned }
  return { burn: null, expiresAt: unburned ?? current, unburnedExpiresAt: null }
}

/** Tries of a lifetime change that lost a race with another change of the same address (each reads it again). */
const MAX_TRIES = 5

/**
 * Changing when a live address ends, after it was made: burning it early (anyone holding the address may, as they may
 * release it) or keeping a saved one longer (only its signed-in owner, up to SAVED_ADDRESS_MAX_DAYS from creation).
 * The per-client place of the address follows its end, so neither frees a place while the address lives.
 */
export class AddressLifetimeService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly inboxes: InboxService,
  ) {}

  async setBurn(rawAddress: string, input: { burnAfterRead?: boolean; burnAfterMinutes?: number }, now = Date.now()): Promise<AddressLifetime> {
    const burn = requestedBurn(input)
    return this.update(await this.inboxes.getInbox(rawAddress), now, (inbox) => lifetimeAfterBurn(inbox, burn, now))
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
    return this.update(inbox, now, () => ({ burn: null, expiresAt, unburnedExpiresAt: null }))
  }

  private async update(read: InboxRow, now: number, change: (inbox: InboxRow) => InboxLifetime): Promise<AddressLifetime> {
    let inbox: InboxRow | undefined = read
    for (let tries = 0; inbox && inbox.expires_at > now && tries < MAX_TRIES; tries++) {
      const to = change(inbox)
      const row = await setInboxLifetime(this.db, inbox.id, inbox, to, now)
      // The cached row holds the old lifetime; the next read takes the new one from the database.
      this.inboxes.forgetInboxes([inbox])
      if (row) {
        if (row.expires_at !== inbox.expires_at) await this.inboxes.limiter.moveEnd(row.address, row.expires_at)
        return { email: row.address, expiresAt: new Date(row.expires_at).toISOString(), burn: row.burn }
      }
      inbox = await findInboxByAddress(this.db, inbox.address)
    }
    if (inbox && inbox.expires_at > now) throw new AppError('internal', 'The address was changed by several requests at once. Please try again.')
    throw inboxNotFound()
  }
}
