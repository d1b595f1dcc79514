import { LANGUAGES, type LanguageCode } from '@tempbox/i18n'
import { Button, cn, DropdownMenu, DropdownMenuContent, DropdownMenuLabel, DropdownMenuRadioGroup, DropdownMenuRadioItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@tempbox/ui'
import { ChevronDown } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { applyLanguage } from '../../../lib/i18n'
import { regionName } from '../../../lib/region-name'

/** Spec §9: a selection applies after the menu's 150 ms closing animation. */
export const LANGUAGE_SWITCH_DELAY_MS = 150

export type LanguagePickerVariant = 'compact' | 'full' | 'header'

function currentLanguage(code: string) {
  return LANGUAGES.find((l) => l.code === code) ?? LANGUAGES[0]
}

type Language = (typeof LANGUAGES)[number]

/** One entry of the open menu: a component, so its country is named when the menu opens, not at every page's render. */
function LanguageOption({ language, reader, showCountry }: { language: Language; reader: string; showCountry: boolean }) {
  return (
    <DropdownMenuRadioItem value={language.code} lang={language.code} data-testid={`language-option-${language.code}`}>
      <span aria-hidden="true">{language.flag}</span>
      <span className="flex flex-col">
        <span>{language.nativeName}</span>
        {showCountry && <span className="text-xs text-slate-600 dark:text-slate-300">{regionName(language.region, reader) ?? language.country}</span>}
      </span>
    </DropdownMenuRadioItem>
  )
}

/**
 * The language dropdown in three looks: `compact` (flag and code), `full` (flag, native name and country),
 * `header` (flag and native name, the name hidden on small screens). Radix closes it on an outside click.
 */
export function LanguagePicker({ variant = 'header', className }: { variant?: LanguagePickerVariant; className?: string }) {
  const { t, i18n } = useTranslation('common')
  const [isSwitching, setIsSwitching] = useState(false)
  const current = currentLanguage(i18n.resolvedLanguage ?? i18n.language)

  function choose(code: string) {
    if (code === current.code) return
    setIsSwitching(true)
    setTimeout(() => {
      void applyLanguage(code as LanguageCode).finally(() => setIsSwitching(false))
    }, LANGUAGE_SWITCH_DELAY_MS)
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant={variant === 'full' ? 'outline' : 'ghost'}
          size={variant === 'compact' ? 'sm' : 'default'}
          className={cn('gap-1.5 transition-opacity duration-150', isSwitching && 'opacity-50', variant === 'full' && 'w-full justify-between', className)}
          // The compact button's visible code must start its accessible name (WCAG 2.5.3), so it spells the rest out in sr-only text.
          aria-label={variant === 'compact' ? undefined : t('language.choose', { language: current.nativeName })}
          data-testid={`language-picker-${variant}`}
        >
          <span aria-hidden="true">{current.flag}</span>
          {variant === 'compact' && (
            <>
              <span className="text-xs font-semibold uppercase">{current.code}</span>
              <span className="sr-only">{t('language.choose', { language: current.nativeName })}</span>
            </>
          )}
          {variant === 'header' && <span className="hidden lg:inline">{current.nativeName}</span>}
          {variant === 'full' && (
            <span className="flex flex-1 flex-col items-start text-start">
              <span>{current.nativeName}</span>
              <span className="text-xs text-slate-600 dark:text-slate-300">{regionName(current.region, current.code) ?? current.country}</span>
            </span>
          )}
          {variant !== 'compact' && <ChevronDown aria-hidden="true" />}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel>{t('language.label')}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={current.code} onValueChange={choose}>
          {LANGUAGES.map((l) => (
            <LanguageOption key={l.code} language={l} reader={current.code} showCountry={variant !== 'compact'} />
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
