import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { copyText } from '../lib/clipboard'
import type { Notify } from './use-notify'

/** Copies an address or a code and says how it went. */
export function useCopy(notify: Notify): (text: string) => Promise<void> {
  const { t } = useTranslation('email')
  return useCallback(
    async (text: string) => {
      if (await copyText(text)) notify({ title: t('toast.copiedTitle'), description: text })
      else notify({ title: t('toast.copyFailedTitle'), description: t('toast.copyFailedText'), variant: 'destructive' })
    },
    [notify, t],
  )
}
