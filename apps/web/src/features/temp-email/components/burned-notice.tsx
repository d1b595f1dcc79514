import type { FullMessage } from '@tempbox/types'
import { useTranslation } from 'react-i18next'

/** After a burn on read: the address is gone, and the message that burned it is shown from this page's copy. */
export function BurnedNotice({ message }: { message: FullMessage | null }) {
  const { t } = useTranslation('email')
  return (
    <div className="mb-4 space-y-2" data-testid="burned-notice">
      <p role="alert" className="text-sm font-medium text-slate-800 dark:text-slate-200">
        {t('burn.burned')}
      </p>
      {message && (
        <div className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700">
          <p className="mb-1 text-xs text-slate-600 dark:text-slate-400">{t('burn.keptCopy')}</p>
          <p className="font-semibold text-slate-900 dark:text-slate-100">{message.subject}</p>
          <p className="text-xs text-slate-600 dark:text-slate-400">{message.sender}</p>
          {message.verification.codes.length > 0 && (
            <p className="mt-2 font-mono text-lg font-semibold text-slate-900 dark:text-slate-50" data-testid="burned-code">
              {message.verification.codes[0]}
            </p>
          )}
          <p className="mt-2 max-h-64 overflow-auto whitespace-pre-wrap break-words text-slate-800 dark:text-slate-200">{message.content}</p>
        </div>
      )}
    </div>
  )
}
