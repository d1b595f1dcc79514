import { cn } from '@tempbox/ui'
import { Monitor, Moon, Sun, type LucideIcon } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { useThemeStore, type Theme } from '../stores/theme-store'

const OPTIONS: { value: Theme; icon: LucideIcon }[] = [
  { value: 'light', icon: Sun },
  { value: 'dark', icon: Moon },
  { value: 'system', icon: Monitor },
]

/** All three themes (spec §3 "Preferences"), including `system`, which follows the device; the header toggle only flips light/dark. */
export function ThemeSelect() {
  const { t } = useTranslation('common')
  const theme = useThemeStore((s) => s.theme)
  const setTheme = useThemeStore((s) => s.setTheme)
  return (
    <div role="group" aria-label={t('theme.label')} className="inline-flex rounded-md border border-slate-300 p-0.5 dark:border-slate-600">
      {OPTIONS.map(({ value, icon: Icon }) => (
        <button
          key={value}
          type="button"
          aria-pressed={theme === value}
          onClick={() => setTheme(value)}
          className={cn(
            'inline-flex cursor-pointer items-center gap-1 rounded px-2 py-1 text-xs font-medium text-slate-700 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-slate-200',
            theme === value && 'bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-white',
          )}
        >
          <Icon aria-hidden="true" className="size-3.5" />
          {t(`theme.${value}`)}
        </button>
      ))}
    </div>
  )
}
