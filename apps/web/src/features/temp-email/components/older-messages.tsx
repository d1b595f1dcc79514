import { ChevronDown } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { secondaryButton } from './styles'

interface OlderMessagesProps {
  shown: number
  total: number
  hasMore: boolean
  loading: boolean
  onLoad: () => void
}

/** Below the list: how many of the inbox's messages are shown, and the button that fetches the next older page. */
export function OlderMessages({ shown, total, hasMore, loading, onLoad }: OlderMessagesProps) {
  const { t } = useTranslation('email')
  return (
    <div className="mt-3 flex flex-col items-center gap-2" data-testid="inbox-more">
      <p className="text-xs text-slate-500 dark:text-slate-400" role="status" data-testid="inbox-shown">
        {t('showing', { shown, total })}
      </p>
      {hasMore && (
        <button type="button" onClick={onLoad} disabled={loading} aria-busy={loading} className={secondaryButton}>
          <ChevronDown className="h-4 w-4" aria-hidden />
          {loading ? t('loadingOlder') : t('loadOlder')}
        </button>
      )}
    </div>
  )
}
