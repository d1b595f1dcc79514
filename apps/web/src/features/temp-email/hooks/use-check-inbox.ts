import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSWRConfig } from 'swr'
import { inboxUrl, refreshInbox } from '../api/inbox'
import { isGone } from '../lib/is-gone'
import type { Notify } from './use-notify'

/** "Check emails": a refresh past every cache, whose answer replaces the listed first page. */
export function useCheckInbox(email: string, notify: Notify, onGone: () => void) {
  const { t } = useTranslation('email')
  const { mutate } = useSWRConfig()
  const [checking, setChecking] = useState(false)

  const check = async () => {
    setChecking(true)
    try {
      const data = await refreshInbox(email)
      await mutate(inboxUrl(email), data, { revalidate: false })
      const count = data.total
      notify({ title: t('toast.refreshedTitle'), description: count > 0 ? t('toast.found', { count }) : t('toast.noNew') })
    } catch (error) {
      if (isGone(error)) onGone()
      else notify({ title: t('toast.errorTitle'), description: t('toast.refreshFailed'), variant: 'destructive' })
    } finally {
      setChecking(false)
    }
  }

  return { checking, check }
}
