import type { DeliveriesResponse, DeliveryEntry } from '@tempbox/types'
import { ChevronDown, RefreshCw } from 'lucide-react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import useSWRInfinite from 'swr/infinite'
import { deliveriesPageKey, fetchDeliveries } from '../api/deliveries'
import { INBOX_POLL_MS } from '../api/inbox'
import { formatBytes } from '../message-viewer/lib/format-bytes'
import { smallButton } from './styles'

const RESULT_STYLE: Record<DeliveryEntry['result'], string> = {
  accepted: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100',
  refused: 'bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100',
  deferred: 'bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100',
}

interface DeliveryLogProps {
  email: string
  /** Opens a stored message in the list above. */
  onOpenMessage: (id: string) => void
}

/** "Why didn't my mail arrive?": the address's delivery log in plain words, read only while open. */
export function DeliveryLog({ email, onOpenMessage }: DeliveryLogProps) {
  const { t } = useTranslation('email')
  const [open, setOpen] = useState(false)
  const panelId = useId()
  const { data, error, isLoading, isValidating, mutate, size, setSize } = useSWRInfinite(
    (index, previous: DeliveriesResponse | null) => (open ? deliveriesPageKey(email, index, previous) : null),
    fetchDeliveries,
    { refreshInterval: INBOX_POLL_MS },
  )
  const entries = data?.flatMap((page) => page.deliveries) ?? []
  const hasMore = (data?.at(-1)?.nextBefore ?? null) !== null

  return (
    <div className="mt-4" data-testid="delivery-log">
      <button type="button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)} className={smallButton}>
        <ChevronDown className={`transition-transform ${open ? 'rotate-180' : ''}`} aria-hidden />
        {t('deliveries.toggle')}
      </button>
      {open && (
        <div id={panelId} className="mt-2 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700">
          <div className="mb-2 flex items-start justify-between gap-2">
            <p className="text-slate-600 dark:text-slate-300">{t('deliveries.intro')}</p>
            <button type="button" onClick={() => void mutate()} disabled={isValidating} className={smallButton}>
              <RefreshCw className={isValidating ? 'animate-spin' : undefined} aria-hidden />
              {t('deliveries.refresh')}
            </button>
          </div>
          {error ? (
            <p role="alert" className="text-red-700 dark:text-red-300">{t('deliveries.failed')}</p>
          ) : isLoading || !data ? (
            <p role="status" className="text-slate-500 dark:text-slate-400">{t('deliveries.loading')}</p>
          ) : entries.length === 0 ? (
            <p role="status" className="text-slate-500 dark:text-slate-400">{t('deliveries.empty')}</p>
          ) : (
            <>
              <ol className="divide-y divide-slate-200 dark:divide-slate-700">
                {entries.map((entry) => (
                  <DeliveryRow key={entry.id} entry={entry} onOpenMessage={onOpenMessage} />
                ))}
              </ol>
              {hasMore && (
                <button type="button" onClick={() => void setSize(size + 1)} disabled={isValidating} className={smallButton}>
                  {t('deliveries.loadOlder')}
                </button>
              )}
            </>
          )}
        </div>
      )}
    </div>
  )
}

function DeliveryRow({ entry, onOpenMessage }: { entry: DeliveryEntry; onOpenMessage: (id: string) => void }) {
  const { t, i18n } = useTranslation('email')
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(entry.at))
  // A reason added to the API after this build: its English sentence rather than nothing.
  const reason = t(`deliveries.reasons.${entry.reason}`, { defaultValue: entry.reasonText })
  const size = entry.size === null ? null : formatBytes(entry.size, i18n.language)
  const messageId = entry.messageId
  return (
    <li className="space-y-1 py-2" data-testid="delivery-entry" data-result={entry.result}>
      <div className="flex flex-wrap items-center gap-2">
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${RESULT_STYLE[entry.result]}`}>{t(`deliveries.result.${entry.result}`)}</span>
        <time dateTime={entry.at} className="text-xs text-slate-500 dark:text-slate-400">{when}</time>
        <span className="font-mono text-xs text-slate-500 dark:text-slate-400" dir="ltr">{`${entry.replyCode} ${entry.enhancedStatus}`}</span>
      </div>
      <p className="text-slate-800 dark:text-slate-100">{reason}</p>
      <p className="flex flex-wrap gap-x-3 text-xs text-slate-500 dark:text-slate-400">
        {entry.tag !== null && <span>{t('deliveries.tag', { tag: entry.tag })}</span>}
        {size && <span>{t('deliveries.size', { size: t(`size.${size.unit}`, { n: size.value }) })}</span>}
        {messageId !== null ? (
          <a
            href={`#message-row-${messageId}`}
            onClick={(event) => {
              event.preventDefault()
              onOpenMessage(messageId)
            }}
            className="font-medium text-blue-700 underline dark:text-blue-300"
          >
            {t('deliveries.open')}
          </a>
        ) : (
          entry.result === 'accepted' && <span>{t('deliveries.gone')}</span>
        )}
      </p>
    </li>
  )
}
