import { Mail } from 'lucide-react'
import { useTranslation } from 'react-i18next'

/** The tool's title and what it is for. */
export function ToolHeader() {
  const { t } = useTranslation('email')
  return (
    <header className="mb-4 flex items-start gap-3">
      <Mail className="mt-1 h-6 w-6 shrink-0 text-blue-600 dark:text-blue-400" aria-hidden />
      <div>
        <h2 id="temp-email-title" className="text-xl font-semibold text-slate-900 dark:text-slate-50">
          {t('title')}
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('subtitle')}</p>
      </div>
    </header>
  )
}
