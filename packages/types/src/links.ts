import { Type, type Static } from 'typebox'

export const CreateLinkBody = Type.Object(
  { url: Type.String({ maxLength: 2048, description: 'Absolute http:// or https:// address to shorten.' }) },
  { additionalProperties: false },
)
export type CreateLinkBody = Static<typeof CreateLinkBody>

/** A shortened link (spec §3: original, shortened, clicks, createdAt) plus its code. */
export const ShortLink = Type.Object({
  code: Type.String({ description: '8 letters and digits (links made before: 6).' }),
  original: Type.String(),
  shortened: Type.String({ description: 'The full short address, e.g. https://tempbox.example/s/Ab12Cd34.' }),
  clicks: Type.Integer({ minimum: 0 }),
  createdAt: Type.String({ format: 'date-time' }),
})
export type ShortLink = Static<typeof ShortLink>

/** What creating a link answers: the link, and the secret that alone shows its clicks and target later. */
export const CreatedShortLink = Type.Intersect([
  ShortLink,
  Type.Object({
    secret: Type.String({ description: 'Keep it: only whoever presents it sees this link\'s clicks and target again. Shown once.' }),
  }),
])
export type CreatedShortLink = Static<typeof CreatedShortLink>

/** Asking for your own links: each code with the secret it was created with. */
export const LookupLinksBody = Type.Object(
  {
    links: Type.Array(
      Type.Object({ code: Type.String({ maxLength: 16 }), secret: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
      { maxItems: 200, description: 'At most 200 links; unknown codes and wrong secrets are left out of the answer.' },
    ),
  },
  { additionalProperties: false },
)
export type LookupLinksBody = Static<typeof LookupLinksBody>

export const ListLinksResponse = Type.Object({ links: Type.Array(ShortLink) })
export type ListLinksResponse = Static<typeof ListLinksResponse>

/** New codes: 62^8 ≈ 2.2 × 10^14, too many to guess even without the rate limit on misses. */
export const SHORT_CODE_LENGTH = 8
/** Codes that can exist: 8 characters, or 6 for links made before codes grew. */
export const SHORT_CODE_PATTERN = /^(?:[A-Za-z0-9]{6}|[A-Za-z0-9]{8})$/
