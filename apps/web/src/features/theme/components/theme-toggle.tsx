import { Button } from '@tempbox/ui'
import { Moon, Sun } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { resolveTheme, useThemeStore } from '../stores/theme-store'

/** The header's light/dark switch (spec §2); `system` resolves to its current look first. */
export function ThemeToggle() {
  const { t } = useTranslation('common')
  const theme = useThemeStore((s) => s.theme)
  const setTheme = useThemeStore((s) => s.setTheme)
  const isDark = resolveTheme(theme) === 'dark'
  const label = isDark ? t('theme.toLight') : t('theme.toDark')
  return (
    <Button variant="ghost" size="icon" onClick={() => setTheme(isDark ? 'light' : 'dark')} aria-label={label} title={label} data-testid="theme-toggle">
      {isDark ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
    </Button>
  )
}
