import { MIN_CHOSEN_LOCAL_PART_LENGTH } from '@tempbox/types/constants'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useDomains } from '../api/inbox'
import { inputClass, primaryButton, secondaryButton } from './styles'

/** Why the last generate failed: a refused chosen name (shown at the field), the active-address limit, or else. */
export interface GenerateError {
  kind: 'name' | 'limit' | 'other'
  message: string
}

interface AddressFormProps {
  pending: boolean
  hasAddress: boolean
  error: GenerateError | null
  onGenerate: (choice: { localPart?: string; domain?: string }) => void
  /** Brings the list of this browser's addresses into view, to release one (shown with the limit's error). */
  onReleaseOld: () => void
}

/** Symbols of the server's random names (no look-alikes 0/o, 1/l). */
const RANDOM_SYMBOLS = 'abcdefghijkmnpqrstuvwxyz23456789'
/** 5 symbols ≈ 25 bits: enough that a chosen name is no longer the first thing others try. */
const RANDOM_SUFFIX_LENGTH = 5

/** The characters the server's rule names: letters, digits and . _ - +, no dot at either end or twice in a row. */
const NAME_PATTERN = /^[a-z0-9_+-]+(\.[a-z0-9_+-]+)*$/i

function randomSuffix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(RANDOM_SUFFIX_LENGTH))
  return Array.from(bytes, (b) => RANDOM_SYMBOLS[b & 31]).join('')
}

/**
 * Generate button plus the optional "your own address" fields (issue 3). Anyone who guesses a chosen name reads its
 * mail, so the form says so, offers to add random characters, and refuses names the server would refuse as too short.
 */
export function AddressForm({ pending, hasAddress, error, onGenerate, onReleaseOld }: AddressFormProps) {
  const { t } = useTranslation('email')
  const [custom, setCustom] = useState(false)
  const [localPart, setLocalPart] = useState('')
  const [domain, setDomain] = useState('')
  const { data } = useDomains(custom)
  const domains = data?.domains ?? []
  const [problem, setProblem] = useState<'short' | 'chars' | null>(null)
  const id = useId()

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!custom) return onGenerate({})
    const chosen = localPart.trim()
    if (chosen && !NAME_PATTERN.test(chosen)) return setProblem('chars')
    if (chosen && chosen.length < MIN_CHOSEN_LOCAL_PART_LENGTH) return setProblem('short')
    setProblem(null)
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
                setProblem(null)
              }}
              aria-describedby={`${id}-local-warning`}
              aria-invalid={problem !== null || error?.kind === 'name' || undefined}
              placeholder={t('localPartPlaceholder')}
              autoComplete="off"
              spellCheck={false}
              maxLength={64}
              className={inputClass}
            />
          </div>
          {domains.length > 1 ? (
            <>
            <span aria-hidden className="hidden pb-2 text-slate-500 sm:block">@</span>
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
            </>
          ) : (
            domains[0] && <span className="pb-2 text-sm text-slate-600 dark:text-slate-400">@{domains[0]}</span>
          )}
        </div>
      )}
      {custom && (
        <div id={`${id}-local-warning`} className="space-y-1 text-sm">
          {problem === 'short' && (
            <p role="alert" className="text-red-700 dark:text-red-400">{t('localPartTooShort', { min: MIN_CHOSEN_LOCAL_PART_LENGTH })}</p>
          )}
          {problem === 'chars' && <p role="alert" className="text-red-700 dark:text-red-400">{t('localPartChars')}</p>}
          {!problem && error?.kind === 'name' && (
            <p role="alert" className="text-red-700 dark:text-red-400">{error.message}</p>
          )}
          <p className="text-amber-800 dark:text-amber-300">
            {t('localPartWarning')}{' '}
            <button
              type="button"
              onClick={() => {
                setLocalPart((v) => `${v.trim() || t('localPartPlaceholder')}-${randomSuffix()}`)
                setProblem(null)
              }}
              className="font-medium underline underline-offset-2"
            >
              {t('addRandom')}
            </button>
          </p>
        </div>
      )}
      <div className="flex flex-col gap-2 sm:flex-row">
        <button
          type="submit"
          disabled={pending}
          aria-describedby={error && error.kind !== 'name' ? `${id}-error` : undefined}
          className={primaryButton}
        >
          {pending ? t('generating') : hasAddress ? t('generateNew') : t('generate')}
        </button>
        <button type="button" aria-pressed={custom} onClick={() => setCustom((v) => !v)} className={secondaryButton}>
          {custom ? t('randomAddress') : t('customToggle')}
        </button>
      </div>
      {error && error.kind !== 'name' && (
        <div id={`${id}-error`} role="alert" className="flex flex-wrap items-center gap-2 text-sm text-red-700 dark:text-red-400">
          <p>{error.message}</p>
          {error.kind === 'limit' && (
            <button type="button" onClick={onReleaseOld} className="font-medium underline underline-offset-2">
              {t('releaseOld')}
            </button>
          )}
        </div>
      )}
    </form>
  )
}
