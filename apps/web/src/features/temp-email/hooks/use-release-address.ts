import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useConfirm } from '../../../components/dialogs/use-confirm'
import { ApiError } from '../../../lib/api-client'
import { useCurrentAddress } from '../../../stores/current-address'
import { releaseAddress } from '../api/inbox'
import { isGone } from '../lib/is-gone'
import type { Notify } from './use-notify'

/** Releasing one of this browser's addresses, after asking in the page's own dialog (rendered from `dialog`). */
export function useReleaseAddress(notify: Notify, onReleased: () => void) {
  const { t } = useTranslation('email')
  const forgetAddress = useCurrentAddress((s) => s.forget)
  const { confirm, dialog } = useConfirm()
  const [releasing, setReleasing] = useState<string | null>(null)

  const release = async (address: string) => {
    const ok = await confirm({
      title: t('kept.releaseTitle'),
      description: t('kept.releaseConfirm', { email: address }),
      confirmLabel: t('kept.release'),
      destructive: true,
    })
    if (!ok) return
    setReleasing(address)
    try {
      await releaseAddress(address)
      forgetAddress(address)
      onReleased()
      notify({ title: t('toast.releasedTitle'), description: t('toast.releasedText', { email: address }) })
    } catch (error) {
      // Already gone on the server (expired, or released from another tab): nothing is left to keep.
      if (isGone(error)) forgetAddress(address)
      else notify({ title: t('toast.errorTitle'), description: error instanceof ApiError ? error.message : t('toast.releaseFailed'), variant: 'destructive' })
    } finally {
      setReleasing(null)
    }
  }

  return { releasing, release, dialog }
}
