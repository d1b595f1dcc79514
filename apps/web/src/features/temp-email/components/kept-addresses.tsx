import { forwardRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { KeptAddress } from '../../../stores/current-address'
import { countdown } from '../lib/format'
import { smallButton } from './styles'

interface KeptAddressesProps {
  addresses: KeptAddress[]
  current: string | null
  now: number
  /** The address being released right now, if any. */
  releasing: string | null
  onSwitch: (address: KeptAddress) => void
  onRelease: (email: string) => void
}

/**
 * This browser's live addresses with their time left: switch the inbox to one, or release one (deleted on the
 * server with its mail, which frees its place under the active-address limit). The heading takes focus when the
 * limit's "Release an old address" brings the list into view.
 */
export const KeptAddresses = forwardRef<HTMLHeadingElement, KeptAddressesProps>(function KeptAddresses(
  { addresses, current, now, releasing, onSwitch, onRelease },
  headingRef,
) {
  const { t } = useTranslation('email')
  if (addresses.length === 0) return null
  return (
    <section aria-labelledby="kept-addresses-title" className="mt-4">
      <h3 id="kept-addresses-title" ref={headingRef} tabIndex={-1} className="mb-2 text-sm font-semibold text-slate-800 focus:outline-none dark:text-slate-200">
        {t('kept.title', { count: addresses.length })}
      </h3>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-700 dark:border-slate-700" data-testid="kept-addresses">
        {addresses.map((a) => {
          const isCurrent = a.email === current
          return (
            <li key={a.email} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
              <div className="min-w-0 flex-1">
                <p dir="ltr" className="text-start font-mono break-all text-slate-900 dark:text-slate-100">{a.email}</p>
                <p className="text-xs text-slate-600 dark:text-slate-400">{t('expiresIn', { time: countdown(a.expiresAt, now) })}</p>
              </div>
              {isCurrent ? (
                <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100">
                  {t('kept.inUse')}
                </span>
              ) : (
                <button type="button" onClick={() => onSwitch(a)} className={smallButton}>
                  {t('kept.switch')}{' '}
                  <span className="sr-only">{a.email}</span>
                </button>
              )}
              <button
                type="button"
                onClick={() => onRelease(a.email)}
                disabled={releasing === a.email}
                className={smallButton}
              >
                {/* The visible word first, then the address: the name heard starts with what is seen, in any language. */}
                {releasing === a.email ? t('kept.releasing') : t('kept.release')}{' '}
                <span className="sr-only">{a.email}</span>
              </button>
            </li>
          )
        })}
      </ul>
    </section>
  )
})
