import { Type } from 'typebox'
import { ErrorBody } from '@tempbox/types'

export const AddressParams = Type.Object({
  address: Type.String({ maxLength: 400, description: 'The full address, e.g. `k7m2qx9ta4pe@tempbox.local`.' }),
})

export const MessageParams = Type.Object({
  address: Type.String({ maxLength: 400 }),
  id: Type.String({ pattern: '^[0-9]{1,15}$', description: 'Message id.' }),
})

/** A message id of MessageParams or AttachmentParams as the number it is: the pattern allows only 15 digits, a safe integer. */
export function messageIdOf(params: { id: string }): number {
  return Number(params.id)
}

export const AttachmentParams = Type.Object({
  address: Type.String({ maxLength: 400 }),
  id: Type.String({ pattern: '^[0-9]{1,15}$' }),
  n: Type.Integer({ minimum: 0, maximum: 10_000, description: 'Attachment index (`attachments[].index`).' }),
})

/** Error answers an address route can give. */
export const addressErrors = {
  400: ErrorBody,
  404: ErrorBody,
}

export const BinaryBody = (description: string) => Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description })
