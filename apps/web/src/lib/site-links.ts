/*
 * Support, privacy (spec §9: answered within 72 hours, GDPR requests within 30 days) and legal addresses come from
 * the server's configuration: see site-emails.ts.
 */

/** Store searches: there is no native app yet, so the buttons open the stores' own search for the name. */
export const PLAY_STORE_URL = 'https://play.google.com/store/search?q=tempbox%20temporary%20email&c=apps'
export const APP_STORE_URL = 'https://apps.apple.com/us/search?term=tempbox%20temporary%20email'

/** Social links are placeholders in the spec; these point at the networks' home pages. */
export const SOCIAL_LINKS = [
  { id: 'github', href: 'https://github.com' },
  { id: 'x', href: 'https://x.com' },
  { id: 'linkedin', href: 'https://www.linkedin.com' },
] as const
