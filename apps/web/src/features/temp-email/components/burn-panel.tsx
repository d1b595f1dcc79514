import type { AddressLifetime, BurnMode } from '@tempbox/types'
import { Flame } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useConfirm } from '../../../components/dialogs/use-confirm'
import { ApiError } from '../../../lib/api-client'
import { useAuthToken } from '../../../stores/auth-token'
import { keepSavedAddress, setBurn } from '../api/burn'
import { burnFields, type BurnChoice } from '../lib/burn'
import { countdown } from '../lib/format'
import { BurnChoiceSelect } from './burn-choice-select'
import { smallButton } from './styles'

/** The web offers a week, the API's default cap (SAVED_ADDRESS_MAX_DAYS); a lower cap answers with its sentence. */
const KEEP_DAYS = 7
/** Past its usual 24 hours (with a minute's slack for clocks), an address was kept longer. */
const USUAL_LIFETIME_MS = 24 * 3600_000 + 60_000

interface BurnPanelProps {
  email: string
  mode: BurnMode
  expiresAt: number
  now: number
  /** Unread messages in the inbox: burning on read deletes them all with the first one opened. */
  unread: number
  onChanged: (lifetime: AddressLifetime) => void
  onError: (message: string) => void
}

/** What will happen to the address in the inbox, and changing it: burn it sooner, or keep a saved one longer. */
export function BurnPanel({ email, mode, expiresAt, now, unread, onChanged, onError }: BurnPanelProps) {
  const { t, i18n } = useTranslation('email')
  const signedIn = useAuthToken((s) => s.token !== null)
  // null until the reader picks something: the select then shows what the address really does.
  const [choice, setChoice] = useState<BurnChoice | null>(null)
  const [pending, setPending] = useState(false)
  const { confirm, dialog } = useConfirm()

  const kept = mode === null && expiresAt - now > USUAL_LIFETIME_MS
  const current =
    mode === 'timer'
      ? t('burn.currentTimer', { time: countdown(expiresAt, now) })
      : kept
        ? t('burn.currentKept', { date: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(expiresAt) })
        : undefined
  const real: BurnChoice | 'current' = mode === 'read' ? 'read' : current !== undefined ? 'current' : 'none'
  const value = choice ?? real

  const run = async (request: () => Promise<AddressLifetime>) => {
    setPending(true)
    try {
      onChanged(await request())
      setChoice(null)
    } catch (error) {
      onError(error instanceof ApiError ? error.message : t('burn.failed'))
    } finally {
      setPending(false)
    }
  }

  const apply = async () => {
    if (value === 'current') return
    if (value === 'read' && mode !== 'read' && unread > 0) {
      const ok = await confirm({
        title: t('burn.confirmReadTitle'),
        description: t('burn.confirmRead', { count: unread }),
        confirmLabel: t('burn.apply'),
        destructive: true,
      })
      if (!ok) return
    }
    await run(() => setBurn(email, burnFields(value)))
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
        <BurnChoiceSelect value={value} onChange={setChoice} disabled={pending} current={current} />
        <button type="button" disabled={pending || value === real} onClick={() => void apply()} className={smallButton}>
          {t('burn.apply')}
        </button>
        {signedIn && (
          <button type="button" disabled={pending} onClick={() => void run(() => keepSavedAddress(email, KEEP_DAYS))} title={t('burn.keepHint')} className={smallButton}>
            {t('burn.keepWeek')}
          </button>
        )}
      </div>
      {dialog}
    </div>
  )
}
