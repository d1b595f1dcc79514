import { Search, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'

interface SearchBoxProps {
  value: string
  onChange: (value: string) => void
  onClear: () => void
}

/** The inbox search field; the query syntax is the API's (`from:`, `subject:`, `has:`…), hinted in the placeholder. */
export function SearchBox({ value, onChange, onClear }: SearchBoxProps) {
  const { t } = useTranslation('email')
  return (
    <div className="relative mb-3" role="search">
      <Search className="pointer-events-none absolute start-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" aria-hidden />
      <input
        type="search"
        value={value}
        maxLength={200}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && value !== '' && (e.stopPropagation(), onClear())}
        aria-label={t('search.label')}
        placeholder={t('search.placeholder')}
        // Our clear button only: Chromium's own (::-webkit-search-cancel-button) would make two.
        className="w-full rounded-lg border border-slate-300 bg-white py-2 ps-9 pe-9 text-sm [&::-webkit-search-cancel-button]:appearance-none text-slate-900 focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/30 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-50"
      />
      {value !== '' && (
        <button
          type="button"
          onClick={onClear}
          aria-label={t('search.clear')}
          className="absolute end-2 top-1/2 -translate-y-1/2 rounded p-1 text-slate-500 hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          <X className="h-4 w-4" aria-hidden />
        </button>
      )}
    </div>
  )
}
