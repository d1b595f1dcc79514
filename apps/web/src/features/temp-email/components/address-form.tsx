import { MIN_CHOSEN_LOCAL_PART_LENGTH } from '@tempbox/types'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useDomains } from '../api/inbox'
import { inputClass, primaryButton, secondaryButton } from './styles'

interface AddressFormProps {
  pending: boolean
  hasAddress: boolean
  onGenerate: (choice: { localPart?: string; domain?: string }) => void
}

/** Symbols of the server's random names (no look-alikes 0/o, 1/l). */
const RANDOM_SYMBOLS = 'abcdefghijkmnpqrstuvwxyz23456789'
/** 5 symbols ≈ 25 bits: enough that a chosen name is no longer the first thing others try. */
const RANDOM_SUFFIX_LENGTH = 5

function randomSuffix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(RANDOM_SUFFIX_LENGTH))
  return Array.from(bytes, (b) => RANDOM_SYMBOLS[b & 31]).join('')
}

/**
 * Generate button plus the optional "your own address" fields (issue 3). Anyone who guesses a chosen name reads its
 * mail, so the form says so, offers to add random characters, and refuses names the server would refuse as too short.
 */
export function AddressForm({ pending, hasAddress, onGenerate }: AddressFormProps) {
  const { t } = useTranslation('email')
  const [custom, setCustom] = useState(false)
  const [localPart, setLocalPart] = useState('')
  const [domain, setDomain] = useState('')
  const { data } = useDomains(custom)
  const domains = data?.domains ?? []
  const [tooShort, setTooShort] = useState(false)
  const id = useId()

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!custom) return onGenerate({})
    const chosen = localPart.trim()
    if (chosen && chosen.length < MIN_CHOSEN_LOCAL_PART_LENGTH) return setTooShort(true)
    setTooShort(false)
    const choice: { localPart?: string; domain?: string } = {}
    if (chosen) choice.localPart = chosen
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
              onChange={(e) => {
                setLocalPart(e.target.value)
                setTooShort(false)
              }}
              aria-describedby={`${id}-local-warning`}
              aria-invalid={tooShort || undefined}
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
      {custom && (
        <div id={`${id}-local-warning`} className="space-y-1 text-sm">
          {tooShort && (
            <p role="alert" className="text-red-700 dark:text-red-400">{t('localPartTooShort', { min: MIN_CHOSEN_LOCAL_PART_LENGTH })}</p>
          )}
          <p className="text-amber-800 dark:text-amber-300">
            {t('localPartWarning')}{' '}
            <button
              type="button"
              onClick={() => {
                setLocalPart((v) => `${v.trim() || t('localPartPlaceholder')}-${randomSuffix()}`)
                setTooShort(false)
              }}
              className="font-medium underline underline-offset-2"
            >
              {t('addRandom')}
            </button>
          </p>
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
