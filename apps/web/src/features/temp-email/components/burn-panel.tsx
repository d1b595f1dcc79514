import type { AddressLifetime, BurnMode } from '@tempbox/types'
import { Flame } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api-client'
import { useAuthToken } from '../../../stores/auth-token'
import { keepSavedAddress, setBurn } from '../api/burn'
import { burnFields, type BurnChoice } from '../lib/burn'
import { countdown } from '../lib/format'
import { BurnChoiceSelect } from './burn-choice-select'
import { smallButton } from './styles'

/** The web offers a week, the API's default cap (SAVED_ADDRESS_MAX_DAYS); a lower cap answers with its sentence. */
const KEEP_DAYS = 7

interface BurnPanelProps {
  email: string
  mode: BurnMode
  expiresAt: number
  now: number
  onChanged: (lifetime: AddressLifetime) => void
  onError: (message: string) => void
}

/** What will happen to the address in the inbox, and changing it: burn it sooner, or keep a saved one longer. */
export function BurnPanel({ email, mode, expiresAt, now, onChanged, onError }: BurnPanelProps) {
  const { t } = useTranslation('email')
  const signedIn = useAuthToken((s) => s.token !== null)
  const [choice, setChoice] = useState<BurnChoice>(mode === 'read' ? 'read' : 'none')
  const [pending, setPending] = useState(false)

  const run = async (request: () => Promise<AddressLifetime>) => {
    setPending(true)
    try {
      onChanged(await request())
    } catch (error) {
      onError(error instanceof ApiError ? error.message : t('burn.failed'))
    } finally {
      setPending(false)
    }
  }

  const notice = mode === 'read' ? t('burn.noticeRead') : mode === 'timer' ? t('burn.noticeTimer', { time: countdown(expiresAt, now) }) : null
  return (
    <div className="space-y-2">
      {notice && (
        <p role="status" data-testid="burn-notice" className="flex items-center gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
          <Flame className="h-4 w-4 shrink-0" aria-hidden />
          {notice}
        </p>
      )}
      <div className="flex flex-wrap items-end gap-2">
        <BurnChoiceSelect value={choice} onChange={setChoice} disabled={pending} />
        <button type="button" disabled={pending} onClick={() => void run(() => setBurn(email, burnFields(choice)))} className={smallButton}>
          {t('burn.apply')}
        </button>
        {signedIn && (
          <button type="button" disabled={pending} onClick={() => void run(() => keepSavedAddress(email, KEEP_DAYS))} title={t('burn.keepHint')} className={smallButton}>
            {t('burn.keepWeek')}
          </button>
        )}
      </div>
    </div>
  )
}
