import { RefreshCw } from 'lucide-react'
import type { Ref } from 'react'
import { useTranslation } from 'react-i18next'
import { secondaryButton } from './styles'

interface InboxHeadingProps {
  headingRef: Ref<HTMLHeadingElement>
  /** The whole inbox's count, shown in brackets. */
  count: number
  /** While filtering: how many match, once the search has answered. */
  matches: number | null
  unread: number
  checking: boolean
  onCheck: () => void
}

/** "Inbox" with its counts, and the button that checks for mail now. */
export function InboxHeading({ headingRef, count, matches, unread, checking, onCheck }: InboxHeadingProps) {
  const { t } = useTranslation('email')
  return (
    <div className="mb-2 flex items-center justify-between gap-2">
      <h3 ref={headingRef} tabIndex={-1} className="scroll-mt-20 text-lg font-semibold text-slate-900 focus:outline-none dark:text-slate-50">
        {/* Both counts are the whole inbox's; while filtering, the matches have their own label. Spaces between the
            pills keep the heading's name apart too ("Inbox (2) Matches: 0 Unread: 2", not "(2)Matches"). */}
        {t('inbox')} <span className="text-sm font-normal text-slate-500 dark:text-slate-400">({count})</span>
        {matches !== null && (
          <>{' '}<span className="ms-1 inline-block rounded-full bg-slate-100 whitespace-nowrap px-2 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200" data-testid="match-count">
            {t('search.matches', { count: matches })}
          </span></>
        )}
        {unread > 0 && (
          <>{' '}<span className="ms-1 inline-block rounded-full bg-blue-100 whitespace-nowrap px-2 py-0.5 text-xs font-semibold text-blue-800 dark:bg-blue-900/60 dark:text-blue-200" data-testid="unread-count">
            {t('alerts.unreadCount', { count: unread })}
          </span></>
        )}
      </h3>
      <button type="button" onClick={onCheck} disabled={checking} className={secondaryButton}>
        <RefreshCw className={`h-4 w-4 ${checking ? 'animate-spin' : ''}`} aria-hidden />
        {checking ? t('checking') : t('check')}
      </button>
    </div>
  )
}
