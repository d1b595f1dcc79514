import type { FullMessage } from '@tempbox/types'
import { useTranslation } from 'react-i18next'
import { PlainText } from '../message-viewer/components/plain-text'
import { VerificationActions } from './verification-actions'

/**
 * After a burn on read: the address is gone, and the message that burned it is shown from this page's copy, with its
 * code still one tap to copy and its links still links: it is what the reader came for.
 */
export function BurnedNotice({ message, onCopyCode }: { message: FullMessage | null; onCopyCode: (code: string) => void }) {
  const { t } = useTranslation('email')
  return (
    <div className="mb-4 space-y-2" data-testid="burned-notice">
      <p role="alert" className="text-sm font-medium text-slate-800 dark:text-slate-200">
        {t('burn.burned')}
      </p>
      {message && (
        <div className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700">
          <p className="mb-1 text-xs text-slate-600 dark:text-slate-400">{t('burn.keptCopy')}</p>
          <p dir="auto" className="text-start font-semibold text-slate-900 dark:text-slate-100">{message.subject}</p>
          <p dir="auto" className="mb-2 text-start text-xs text-slate-600 dark:text-slate-400">{message.sender}</p>
          <div className="-mx-3 sm:-mx-4">
            <VerificationActions verification={message.verification} onCopy={onCopyCode} />
          </div>
          <div className="max-h-64 overflow-auto">
            <PlainText text={message.content} empty={t('viewer.empty')} />
          </div>
        </div>
      )}
    </div>
  )
}
