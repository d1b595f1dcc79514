/** Every site route with the heading and document title it shows in English (issue 4); `legal` marks the legal pages. */
export const SITE_ROUTES: { path: string; heading: string | null; title: string; legal?: true }[] = [
  { path: '/', heading: 'Free Temporary Email, Instantly', title: 'Tempbox — Free Temporary Email and Web Tools' },
  { path: '/blog', heading: 'Tempbox Blog', title: 'Blog — Tempbox' },
  { path: '/about', heading: 'About Tempbox', title: 'About Us — Tempbox' },
  { path: '/contact', heading: 'Contact Us', title: 'Contact Us — Tempbox' },
  { path: '/legal', heading: 'Legal Information', title: 'Legal — Tempbox', legal: true },
  { path: '/privacy-policy', heading: 'Privacy Policy', title: 'Privacy Policy — Tempbox', legal: true },
  { path: '/terms', heading: 'Terms of Service', title: 'Terms of Service — Tempbox', legal: true },
  { path: '/disclaimer', heading: 'Disclaimer', title: 'Disclaimer — Tempbox', legal: true },
  { path: '/cookie-policy', heading: 'Cookie Policy', title: 'Cookie Policy — Tempbox', legal: true },
  { path: '/gdpr', heading: 'GDPR', title: 'GDPR — Tempbox', legal: true },
  // The accounts feature owns these pages' content; the site gives them their titles.
  { path: '/analytics', heading: null, title: 'Analytics — Tempbox' },
  { path: '/admin-setup', heading: null, title: 'Admin Setup — Tempbox' },
  { path: '/no-such-page', heading: 'Page Not Found', title: 'Page Not Found — Tempbox' },
]
