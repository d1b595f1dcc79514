import { Type, type Static } from 'typebox'

export const CreateLinkBody = Type.Object(
  { url: Type.String({ maxLength: 2048, description: 'Absolute http:// or https:// address to shorten.' }) },
  { additionalProperties: false },
)
export type CreateLinkBody = Static<typeof CreateLinkBody>

/** A shortened link (spec §3: original, shortened, clicks, createdAt) plus its code. */
export const ShortLink = Type.Object({
  code: Type.String({ description: '6 letters and digits.' }),
  original: Type.String(),
  shortened: Type.String({ description: 'The full short address, e.g. https://tempbox.example/s/Ab12Cd.' }),
  clicks: Type.Integer({ minimum: 0 }),
  createdAt: Type.String({ format: 'date-time' }),
})
export type ShortLink = Static<typeof ShortLink>

export const ListLinksQuery = Type.Object({
  codes: Type.String({ maxLength: 1400, description: 'Comma-separated codes (at most 200).' }),
})
export type ListLinksQuery = Static<typeof ListLinksQuery>

export const ListLinksResponse = Type.Object({ links: Type.Array(ShortLink) })
export type ListLinksResponse = Static<typeof ListLinksResponse>

export const SHORT_CODE_LENGTH = 6
export const SHORT_CODE_PATTERN = /^[A-Za-z0-9]{6}$/
