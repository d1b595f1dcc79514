/**
 * Plain values the web app shares with the API. No schema lives here, so the browser can import these
 * (`@tempbox/types/constants`) without pulling TypeBox and every API schema into its first JavaScript.
 */

export const PASSWORD_MIN_LENGTH = 6
/** Longer passwords are refused rather than hashed: argon2 of megabytes is a cheap way to burn our CPU. */
export const PASSWORD_MAX_LENGTH = 256

/** A chosen name shorter than this is refused: short names are the first ones others guess. */
export const MIN_CHOSEN_LOCAL_PART_LENGTH = 6

/** Longest accepted field of a contact message, in characters. */
export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const

/** Characters of body text in a summary's `preview`. */
export const PREVIEW_CHARS = 100

/** Longest burn timer: shorter than the usual 24-hour lifetime (a longer one would burn nothing). */
export const MAX_BURN_MINUTES = 1439
/** The timers the web offers; the API takes any whole number of minutes up to MAX_BURN_MINUTES. */
export const BURN_MINUTE_CHOICES = [10, 60, 360] as const

/** Longest `limit` of one page of the delivery log, and the page when the client does not say. */
export const MAX_DELIVERY_PAGE = 100
export const DEFAULT_DELIVERY_PAGE = 50
