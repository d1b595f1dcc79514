import type { InboxRow } from '@tempbox/db'
import { AppError } from '../../errors.js'

export interface Burn {
  mode: InboxRow['burn']
  /** Minutes from now for a timer; null otherwise. */
  minutes: number | null
}

/** The burn a request asks for (the schema has bounded the minutes); both kinds at once is a contradiction. */
export function requestedBurn(input: { burnAfterRead?: boolean; burnAfterMinutes?: number }): Burn {
  const minutes = input.burnAfterMinutes ?? null
  if (input.burnAfterRead === true && minutes !== null) {
    throw new AppError('validation_failed', 'Choose one: delete the address after its first message is read, or after a number of minutes — not both.', {
      burnAfterMinutes: 'Leave this out when burnAfterRead is true.',
    })
  }
  if (input.burnAfterRead === true) return { mode: 'read', minutes: null }
  return minutes === null ? { mode: null, minutes: null } : { mode: 'timer', minutes }
}
