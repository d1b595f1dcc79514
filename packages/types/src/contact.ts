import { Type, type Static } from 'typebox'

export const ContactBody = Type.Object({
  name: Type.String({ maxLength: 20000 }),
  email: Type.String({ maxLength: 20000 }),
  subject: Type.String({ maxLength: 20000 }),
  message: Type.String({ maxLength: 20000 }),
})
export type ContactBody = Static<typeof ContactBody>

export const ContactCreatedResponse = Type.Object({ success: Type.Boolean(), id: Type.Integer() })
export type ContactCreatedResponse = Static<typeof ContactCreatedResponse>
