import { Type, type Static } from 'typebox'
import { MAX_BURN_MINUTES } from './constants.js'

/** How an address ends early, if it does: the same fields when generating and later from the inbox. */
export const BurnFields = {
  burnAfterRead: Type.Optional(
    Type.Boolean({ description: 'Delete the address and its mail as soon as one of its messages is marked read (PATCH …/messages/{id}).' }),
  ),
  burnAfterMinutes: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_BURN_MINUTES,
      description: 'Delete the address and its mail this many minutes from now (less than the usual 24 hours). Not with `burnAfterRead`.',
    }),
  ),
}

export const BurnMode = Type.Union([Type.Literal('read'), Type.Literal('timer'), Type.Null()], {
  description: '`read`: deleted when a message is first marked read; `timer`: deleted at `expiresAt`; null: an ordinary address.',
})
export type BurnMode = Static<typeof BurnMode>

export const SetBurnBody = Type.Object(BurnFields, {
  additionalProperties: false,
  description: 'Neither field (`{}`) turns burning off: the address then lives its usual 24 hours from creation.',
})
export type SetBurnBody = Static<typeof SetBurnBody>

/** An address's lifetime as it stands now. */
export const AddressLifetime = Type.Object({
  email: Type.String(),
  expiresAt: Type.String({ format: 'date-time', description: 'When the address and its mail are deleted at the latest.' }),
  burn: BurnMode,
})
export type AddressLifetime = Static<typeof AddressLifetime>

export const ExtendAddressBody = Type.Object(
  {
    days: Type.Integer({
      minimum: 1,
      description: 'Keep the address this many days from its creation, at most SAVED_ADDRESS_MAX_DAYS (7 unless configured).',
    }),
  },
  { additionalProperties: false },
)
export type ExtendAddressBody = Static<typeof ExtendAddressBody>
