import { lazy, Suspense, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { SWRConfig } from 'swr'
import { swrConfig } from '../lib/swr'

// The toast viewport loads right after the first render: a toast raised before it arrives waits in the store.
const Toaster = lazy(async () => ({ default: (await import('@tempbox/ui/toaster')).Toaster }))

function AppToaster() {
  // The key is filled in here: Radix's own `{hotkey}` placeholder reached screen readers unreplaced.
  const { t } = useTranslation('common')
  return (
    <Suspense fallback={null}>
      <Toaster closeLabel={t('actions.close')} viewportLabel={t('a11y.notifications', { hotkey: 'F8' })} />
    </Suspense>
  )
}

/**
 * App-wide providers. Tooltips carry their own provider (700 ms delay, 300 ms skip delay: see @tempbox/ui's tooltip),
 * which keeps Radix's positioning code out of the first bundle.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <SWRConfig value={swrConfig}>
      {children}
      <AppToaster />
    </SWRConfig>
  )
}
