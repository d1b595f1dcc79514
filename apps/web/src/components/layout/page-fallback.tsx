import { useTranslation } from 'react-i18next'

/** Shown while a lazily loaded page or tool arrives. */
export function PageFallback({ minHeight = '60vh' }: { minHeight?: string }) {
  const { t } = useTranslation('common')
  return (
    <div className="flex items-center justify-center" style={{ minHeight }} role="status" aria-live="polite">
      <span className="sr-only">{t('status.loading')}</span>
      <span className="size-8 animate-spin rounded-full border-4 border-slate-300 border-t-blue-700" aria-hidden="true" />
    </div>
  )
}
