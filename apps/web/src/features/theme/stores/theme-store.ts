import { create } from 'zustand'

export type Theme = 'light' | 'dark' | 'system'

/** localStorage key of the theme; index.html's inline script reads the same key before first paint. */
export const THEME_STORAGE_KEY = 'tempbox-theme'
/** Spec §4: the stored default is light. */
export const DEFAULT_THEME: Theme = 'light'

function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark' || value === 'system'
}

function readStoredTheme(): Theme {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY)
    return isTheme(value) ? value : DEFAULT_THEME
  } catch {
    return DEFAULT_THEME
  }
}

export function prefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches
}

/** Resolves `system` to the device's current preference. */
export function resolveTheme(theme: Theme): 'light' | 'dark' {
  if (theme === 'system') return prefersDark() ? 'dark' : 'light'
  return theme
}

type ThemeState = { theme: Theme; setTheme: (theme: Theme) => void }

export const useThemeStore = create<ThemeState>((set) => ({
  theme: readStoredTheme(),
  setTheme: (theme) => {
    try {
      localStorage.setItem(THEME_STORAGE_KEY, theme)
    } catch {
      // Private mode without storage: the choice lasts for this visit only.
    }
    set({ theme })
  },
}))
