import { Mail } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

export function Logo({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation('common')
  return (
    <Link to="/" onClick={onNavigate} className="flex items-center gap-2 rounded-md text-lg font-bold text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-white" aria-label={t('nav.homeLabel')}>
      <span className="flex size-8 items-center justify-center rounded-lg bg-blue-700 text-white" aria-hidden="true">
        <Mail className="size-4" />
      </span>
      {/* Below 400 px the header's buttons need the room; the link keeps its accessible name. */}
      <span className="hidden min-[400px]:inline">{t('appName')}</span>
    </Link>
  )
}
