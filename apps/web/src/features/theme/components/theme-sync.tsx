import { useEffect } from 'react'
import { resolveTheme, useThemeStore } from '../stores/theme-store'

function applyThemeClass(resolved: 'light' | 'dark') {
  const root = document.documentElement
  root.classList.toggle('dark', resolved === 'dark')
  root.classList.toggle('light', resolved === 'light')
  root.style.colorScheme = resolved
}

/** Keeps the class on <html> in line with the chosen theme and, for `system`, with the device's changes. */
export function ThemeSync() {
  const theme = useThemeStore((s) => s.theme)
  useEffect(() => {
    applyThemeClass(resolveTheme(theme))
    if (theme !== 'system') return
    const query = matchMedia('(prefers-color-scheme: dark)')
    const onChange = () => applyThemeClass(query.matches ? 'dark' : 'light')
    query.addEventListener('change', onChange)
    return () => query.removeEventListener('change', onChange)
  }, [theme])
  return null
}
