import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import { useSiteEmails } from '../../lib/site-emails'
import { SOCIAL_LINKS } from '../../lib/site-links'
import { Logo } from './logo'

const QUICK_LINKS = [
  { key: 'tools', to: { pathname: '/', hash: '#tools' } },
  { key: 'blog', to: { pathname: '/blog' } },
  { key: 'about', to: { pathname: '/about' } },
  { key: 'contact', to: { pathname: '/contact' } },
] as const

const LEGAL_LINKS = [
  { key: 'legal', to: '/legal' },
  { key: 'privacy', to: '/privacy-policy' },
  { key: 'terms', to: '/terms' },
  { key: 'disclaimer', to: '/disclaimer' },
  { key: 'cookies', to: '/cookie-policy' },
  { key: 'gdpr', to: '/gdpr' },
] as const

/** Spec §2/§9: the copyright year is 2024, and 2025 on the blog. */
function copyrightYear(pathname: string): number {
  return pathname.startsWith('/blog') ? 2025 : 2024
}

const linkClass = 'rounded text-sm text-slate-700 hover:text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-slate-300 dark:hover:text-blue-300'

export function Footer({ settings }: { settings?: ReactNode }) {
  const { t } = useTranslation('common')
  const { pathname } = useLocation()
  const { support } = useSiteEmails()
  return (
    <footer className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-3">
          <Logo />
          <p className="text-sm text-slate-700 dark:text-slate-300">{t('footer.about')}</p>
          {support && <a className={linkClass} href={`mailto:${support}`}>{support}</a>}
        </div>
        <nav aria-labelledby="footer-quick">
          <h2 id="footer-quick" className="mb-3 text-sm font-semibold text-slate-900 dark:text-white">{t('footer.quickLinks')}</h2>
          <ul className="space-y-2">
            {QUICK_LINKS.map((l) => (
              <li key={l.key}><Link className={linkClass} to={l.to}>{t(`nav.${l.key}`)}</Link></li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="mb-3 text-sm font-semibold text-slate-900 dark:text-white">{t('footer.legal')}</h2>
          <ul className="space-y-2">
            {LEGAL_LINKS.map((l) => (
              <li key={l.key}><Link className={linkClass} to={l.to}>{t(`footer.legalLinks.${l.key}`)}</Link></li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-social">
          <h2 id="footer-social" className="mb-3 text-sm font-semibold text-slate-900 dark:text-white">{t('footer.followUs')}</h2>
          <ul className="space-y-2">
            {SOCIAL_LINKS.map((l) => (
              <li key={l.id}><a className={linkClass} href={l.href} target="_blank" rel="noopener noreferrer">{t(`footer.social.${l.id}`)}</a></li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 border-t border-slate-200 px-4 py-4 text-sm text-slate-700 sm:flex-row dark:border-slate-800 dark:text-slate-300">
        <p>{t('footer.copyright', { year: copyrightYear(pathname), name: t('appName') })}</p>
        <div className="flex items-center gap-2">
          {settings}
        </div>
      </div>
    </footer>
  )
}
