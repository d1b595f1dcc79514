import type { GenerateEmailResponse } from '@tempbox/types'
import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api-client'
import { useCurrentAddress } from '../../../stores/current-address'
import { generateEmail } from '../api/inbox'
import { burnFields, type BurnChoice } from '../lib/burn'
import type { GenerateError } from '../components/address-form'
import type { Notify } from './use-notify'

/** Generating an address with the chosen name and deletion, and what went wrong the last time. */
export function useGenerateAddress(notify: Notify, onGenerated: (result: GenerateEmailResponse) => void) {
  const { t } = useTranslation('email')
  const setAddress = useCurrentAddress((s) => s.setAddress)
  const [generating, setGenerating] = useState(false)
  const [error, setError] = useState<GenerateError | null>(null)
  const [burnChoice, setBurnChoice] = useState<BurnChoice>('none')

  const generate = async (choice: { localPart?: string; domain?: string }) => {
    setGenerating(true)
    try {
      const result = await generateEmail({ ...choice, ...burnFields(burnChoice) })
      setAddress(result.email, result.expiresAt)
      onGenerated(result)
      setError(null)
      notify({ title: t('toast.generatedTitle'), description: t('toast.generatedText', { email: result.email }) })
      // The pressed button was disabled while pending, which drops focus to <body>: it goes to the new address.
      requestAnimationFrame(() => document.getElementById('temp-email-address')?.focus({ preventScroll: true }))
    } catch (error) {
      // A chosen name the server refuses (taken, reserved, malformed) and the per-client limits are said once, at the
      // form; only an unexplained failure is a toast. The active-address limit counts per network (everyone behind one
      // IP) and offers to release an old address: releasing one does not lift the hourly limit, which only time does.
      const refusal = error instanceof ApiError ? error : null
      const next: GenerateError | null =
        refusal?.code === 'too_many_active_addresses'
          ? { kind: 'limit', message: t('limitNetwork') }
          : refusal?.code === 'rate_limited'
            ? { kind: 'other', message: refusal.message }
            : choice.localPart && refusal && (refusal.status === 400 || refusal.status === 409)
              ? { kind: 'name', message: refusal.message }
              : null
      setError(next)
      if (!next) notify({ title: t('toast.errorTitle'), description: t('toast.generateFailed'), variant: 'destructive' })
    } finally {
      setGenerating(false)
    }
  }

  // An address released makes room under the active-address limit, so its error no longer holds.
  const clearLimitError = useCallback(() => setError((current) => (current?.kind === 'limit' ? null : current)), [])

  return { generating, error, burnChoice, setBurnChoice, generate, clearLimitError }
}
