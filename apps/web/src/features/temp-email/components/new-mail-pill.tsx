import { ArrowDown } from 'lucide-react'
import { useTranslation } from 'react-i18next'

/** "New mail: 2 ↓" by the address while the message list is out of view: a tap brings the list into view. */
export function NewMailPill({ count, onShow }: { count: number; onShow: () => void }) {
  const { t } = useTranslation('email')
  return (
    <button
      type="button"
      onClick={onShow}
      data-testid="new-mail-pill"
      className="inline-flex items-center gap-1 rounded-full bg-blue-600 px-3 py-1 text-xs font-semibold whitespace-nowrap text-white shadow hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:bg-blue-500 dark:text-slate-950"
    >
      {t('newMailPill', { count })}
      <ArrowDown className="h-3 w-3" aria-hidden />
    </button>
  )
}
