import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useDomains } from '../api/inbox'
import { inputClass, primaryButton, secondaryButton } from './styles'

interface AddressFormProps {
  pending: boolean
  hasAddress: boolean
  onGenerate: (choice: { localPart?: string; domain?: string }) => void
}

/** Generate button plus the optional "your own address" fields (issue 3). */
export function AddressForm({ pending, hasAddress, onGenerate }: AddressFormProps) {
  const { t } = useTranslation('email')
  const [custom, setCustom] = useState(false)
  const [localPart, setLocalPart] = useState('')
  const [domain, setDomain] = useState('')
  const { data } = useDomains(custom)
  const domains = data?.domains ?? []
  const id = useId()

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!custom) return onGenerate({})
    const choice: { localPart?: string; domain?: string } = {}
    if (localPart.trim()) choice.localPart = localPart.trim()
    if (domain) choice.domain = domain
    onGenerate(choice)
  }

  return (
    <form onSubmit={submit} className="space-y-3">
      {custom && (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex-1">
            <label htmlFor={`${id}-local`} className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300">
              {t('localPartLabel')}
            </label>
            <input
              id={`${id}-local`}
              value={localPart}
              onChange={(e) => setLocalPart(e.target.value)}
              placeholder={t('localPartPlaceholder')}
              autoComplete="off"
              spellCheck={false}
              maxLength={64}
              className={inputClass}
            />
          </div>
          <span aria-hidden className="hidden pb-2 text-slate-500 sm:block">@</span>
          {domains.length > 1 ? (
            <div className="sm:w-56">
              <label htmlFor={`${id}-domain`} className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300">
                {t('domainLabel')}
              </label>
              <select id={`${id}-domain`} value={domain || domains[0]} onChange={(e) => setDomain(e.target.value)} className={inputClass}>
                {domains.map((d) => (
                  <option key={d} value={d}>
                    {d}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            domains[0] && <span className="pb-2 text-sm text-slate-600 dark:text-slate-400">@{domains[0]}</span>
          )}
        </div>
      )}
      <div className="flex flex-col gap-2 sm:flex-row">
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? t('generating') : hasAddress ? t('generateNew') : t('generate')}
        </button>
        <button type="button" aria-pressed={custom} onClick={() => setCustom((v) => !v)} className={secondaryButton}>
          {custom ? t('randomAddress') : t('customToggle')}
        </button>
      </div>
    </form>
  )
}
