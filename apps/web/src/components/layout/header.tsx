import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { NavLink } from 'react-router'
import { useCurrentUser } from '../../lib/current-user'
import { deferred } from './deferred'
import { Logo } from './logo'
import { NAV_LINKS } from './nav-links'
import { StoreButtons } from './store-buttons'

const MobileMenu = deferred(() => import('./mobile-menu'), (m) => m.MobileMenu, 'inline-block size-10 md:hidden')

const linkClass =
  'rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white'

export function Header({ actions, menuSettings }: { actions?: ReactNode; menuSettings?: ReactNode }) {
  const { t } = useTranslation('common')
  const { isAdmin } = useCurrentUser()
  const links = NAV_LINKS.filter((l) => !('isAdminOnly' in l) || isAdmin)
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur dark:border-slate-800 dark:bg-slate-950/95">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4">
        <Logo />
        <nav aria-label={t('a11y.mainNav')} className="ms-4 hidden md:block">
          <ul className="flex items-center gap-1">
            {links.map((l) => (
              <li key={l.key}>
                <NavLink to={l.to} className={linkClass} end>
                  {t(`nav.${l.key}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ms-auto flex items-center gap-1">
          <StoreButtons className="hidden xl:flex" />
          {actions}
          <MobileMenu isAdmin={isAdmin} settings={menuSettings} />
        </div>
      </div>
    </header>
  )
}
