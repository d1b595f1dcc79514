/** The header's links (spec §2); `isAdminOnly` links show only to an admin or owner. */
export const NAV_LINKS = [
  { key: 'tools', to: { pathname: '/', hash: '#tools' } },
  { key: 'about', to: { pathname: '/about' } },
  { key: 'contact', to: { pathname: '/contact' } },
  { key: 'adminSetup', to: { pathname: '/admin-setup' } },
  { key: 'analytics', to: { pathname: '/analytics' }, isAdminOnly: true },
] as const
