import { Type, type Static } from 'typebox'

/** What we know about one IP address, from the local databases only (DB-IP city + ASN, CC BY 4.0). */
export const IpInfo = Type.Object({
  ip: Type.String({ description: 'The address looked up, in its normal written form.' }),
  version: Type.Union([Type.Literal(4), Type.Literal(6)]),
  isPrivate: Type.Boolean({ description: 'True for private, loopback, link-local and other non-public ranges: nothing to look up.' }),
  countryName: Type.Union([Type.String(), Type.Null()]),
  countryCode: Type.Union([Type.String(), Type.Null()], { description: 'ISO 3166-1 alpha-2.' }),
  region: Type.Union([Type.String(), Type.Null()]),
  city: Type.Union([Type.String(), Type.Null()]),
  timeZone: Type.Union([Type.String(), Type.Null()]),
  asn: Type.Union([Type.Integer(), Type.Null()], { description: 'Autonomous system number of the network.' }),
  organisation: Type.Union([Type.String(), Type.Null()], { description: 'The network operator (ISP / organisation).' }),
})
export type IpInfo = Static<typeof IpInfo>

export const IpParams = Type.Object({ ip: Type.String({ maxLength: 64 }) })
export type IpParams = Static<typeof IpParams>
