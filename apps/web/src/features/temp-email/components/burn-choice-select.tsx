import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { BURN_CHOICES, type BurnChoice } from '../lib/burn'
import { inputClass } from './styles'

const LABEL_KEY: Record<BurnChoice, string> = { none: 'burn.none', read: 'burn.read', '10': 'burn.m10', '60': 'burn.h1', '360': 'burn.h6' }

/**
 * "When should this address be deleted?" — when generating, and for the address in the inbox. There `current` is what
 * the address really does when no offered choice says it (a running timer, kept longer): shown first, as the value.
 */
export function BurnChoiceSelect({
  value,
  onChange,
  disabled,
  current,
}: {
  value: BurnChoice | 'current'
  onChange: (choice: BurnChoice) => void
  disabled?: boolean
  current?: string
}) {
  const { t } = useTranslation('email')
  const id = useId()
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700 dark:text-slate-300">
        {t('burn.label')}
      </label>
      <select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as BurnChoice)} className={inputClass}>
        {current !== undefined && <option value="current">{current}</option>}
        {BURN_CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {t(LABEL_KEY[choice])}
          </option>
        ))}
      </select>
    </div>
  )
}
