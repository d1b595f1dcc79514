import { Type, type Static } from 'typebox'

/** What the web app needs to know about this deployment (`GET /api/config`), so nothing site-specific is built into it. */
export const SiteConfigResponse = Type.Object({
  supportEmail: Type.String({ description: 'Support and contact address (SUPPORT_EMAIL; default support@ the first mail domain).' }),
  privacyEmail: Type.String({ description: 'Privacy and data-protection requests (PRIVACY_EMAIL; default the support address).' }),
  legalEmail: Type.String({ description: 'Legal notices (LEGAL_EMAIL; default the support address).' }),
})
export type SiteConfigResponse = Static<typeof SiteConfigResponse>
