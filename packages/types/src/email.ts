import { Type, type Static } from 'typebox'

export const GenerateEmailBody = Type.Object(
  {
    localPart: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Desired local part; random when omitted.' })),
    domain: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'One of the served domains; the first when omitted.' })),
  },
  { additionalProperties: false },
)
export type GenerateEmailBody = Static<typeof GenerateEmailBody>

export const GenerateEmailResponse = Type.Object({
  email: Type.String({ description: 'The new address.' }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the address and its mail are deleted.' }),
})
export type GenerateEmailResponse = Static<typeof GenerateEmailResponse>

export const InboxMessage = Type.Object({
  id: Type.String(),
  subject: Type.String(),
  sender: Type.String({ description: 'Display form of the sender: "Name <address>" or the address alone.' }),
  content: Type.String({ description: 'Plain-text body (a text rendering of the HTML when the message has no text part).' }),
  receivedAt: Type.String({ format: 'date-time' }),
})
export type InboxMessage = Static<typeof InboxMessage>

export const InboxResponse = Type.Object({
  messages: Type.Array(InboxMessage),
})
export type InboxResponse = Static<typeof InboxResponse>

export const DomainsResponse = Type.Object({ domains: Type.Array(Type.String()) })
export type DomainsResponse = Static<typeof DomainsResponse>
