import type { AddressLifetime } from '@tempbox/types'
import { Copy } from 'lucide-react'
import type { ComponentProps } from 'react'
import { useTranslation } from 'react-i18next'
import { countdown } from '../lib/format'
import { BurnPanel } from './burn-panel'
import { NewMailPill } from './new-mail-pill'
import { secondaryButton } from './styles'

interface AddressPanelProps {
  email: string
  expiresAt: number | null
  now: number
  burnMode: ComponentProps<typeof BurnPanel>['mode']
  unread: number
  /** Mail that came while the inbox was scrolled away, announced by the pill. */
  unseen: number
  onShowInbox: () => void
  onCopy: (text: string) => void
  onLifetimeChanged: (lifetime: AddressLifetime) => void
  onError: (message: string) => void
}

/** The address in use: to copy, with its time left, its new mail and when it will be deleted. */
export function AddressPanel({ email, expiresAt, now, burnMode, unread, unseen, onShowInbox, onCopy, onLifetimeChanged, onError }: AddressPanelProps) {
  const { t } = useTranslation('email')
  return (
    <div className="mb-4 space-y-2">
      <label htmlFor="temp-email-address" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {t('addressLabel')}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id="temp-email-address"
          readOnly
          value={email}
          onFocus={(e) => e.currentTarget.select()}
          className="min-h-10 w-full min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
        />
        <button type="button" onClick={() => onCopy(email)} className={secondaryButton}>
          <Copy className="h-4 w-4" aria-hidden />
          {t('copy')}
        </button>
      </div>
      {expiresAt !== null && (
        <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="expiry">
          {t('expiresIn', { time: countdown(expiresAt, now) })}
        </p>
      )}
      {unseen > 0 && <NewMailPill count={unseen} onShow={onShowInbox} />}
      {expiresAt !== null && (
        <BurnPanel key={email} email={email} mode={burnMode} expiresAt={expiresAt} now={now} unread={unread} onChanged={onLifetimeChanged} onError={onError} />
      )}
    </div>
  )
}
