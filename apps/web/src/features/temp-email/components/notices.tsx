import { X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { useNotices } from '../hooks/use-notify'

/** Renders the tool's current toast: a polite live region, closable. */
export function Notices() {
  const { t } = useTranslation('email')
  const current = useNotices((s) => s.current)
  const dismiss = useNotices((s) => s.dismiss)
  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4 sm:justify-end">
      {current && (
        <div
          role={current.variant === 'destructive' ? 'alert' : 'status'}
          className={
            'pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border p-4 shadow-lg ' +
            (current.variant === 'destructive'
              ? 'border-red-300 bg-red-600 text-white dark:border-red-800 dark:bg-red-700'
              : 'border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100')
          }
        >
          <div className="min-w-0 flex-1">
            <p className="font-semibold">{current.title}</p>
            {current.description && <p className="mt-1 break-words text-sm opacity-90">{current.description}</p>}
          </div>
          <button type="button" onClick={dismiss} aria-label={t('close')} className="rounded p-1 opacity-70 hover:opacity-100 focus-visible:outline-2">
            <X className="h-4 w-4" aria-hidden />
          </button>
        </div>
      )}
    </div>
  )
}
