import { Toaster, TooltipProvider } from '@tempbox/ui'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { SWRConfig } from 'swr'
import { swrConfig } from '../lib/swr'

function AppToaster() {
  const { t } = useTranslation('common')
  return <Toaster closeLabel={t('actions.close')} viewportLabel={t('a11y.notifications')} />
}

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <SWRConfig value={swrConfig}>
      <TooltipProvider>
        {children}
        <AppToaster />
      </TooltipProvider>
    </SWRConfig>
  )
}
