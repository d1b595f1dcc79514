import { PASSWORD_MIN_LENGTH } from '@tempbox/types/constants'
import { Button, Input, Label, useToast } from '@tempbox/ui'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api-client'
import { changePassword } from '../api/auth'
import { useAuthToken } from '../../../stores/auth-token'

/**
 * Current + new password (spec §5: at least 6 characters). The server signs out every other session and answers a
 * fresh token for this one, which replaces the stored token so this tab stays signed in.
 */
export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('account')
  const { toast } = useToast()
  const setToken = useAuthToken((s) => s.setToken)
  const [currentPassword, setCurrentPassword] = useState('')
  const [newPassword, setNewPassword] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [pending, setPending] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!currentPassword || !newPassword) return setProblem(t('password.fillAll'))
    if (newPassword.length < PASSWORD_MIN_LENGTH) return setProblem(t('password.tooShort', { min: PASSWORD_MIN_LENGTH }))
    if (newPassword === currentPassword) return setProblem(t('password.same'))
    setProblem(null)
    setPending(true)
    try {
      const result = await changePassword({ currentPassword, newPassword })
      setToken(result.token)
      toast({ title: t('toast.passwordChanged'), description: t('toast.passwordChangedText') })
      onDone()
    } catch (err) {
      const message = err instanceof ApiError && err.code === 'wrong_password' ? t('password.wrong') : (err as Error).message || t('toast.passwordFailedText')
      setProblem(message)
      toast({ variant: 'destructive', title: t('toast.passwordFailed'), description: message })
    } finally {
      setPending(false)
    }
  }

  return (
    // noValidate: our own messages, in the reader's language, instead of the browser's.
    <form onSubmit={submit} noValidate className="space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700" aria-labelledby="change-password-title">
      <h3 id="change-password-title" className="text-sm font-semibold">{t('password.title')}</h3>
      <div className="space-y-2">
        <Label htmlFor="current-password">{t('password.current')}</Label>
        <Input id="current-password" type="password" autoComplete="current-password" value={currentPassword} onChange={(e) => setCurrentPassword(e.target.value)} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="new-password">{t('password.new')}</Label>
        <Input
          id="new-password"
          type="password"
          autoComplete="new-password"
          aria-describedby="new-password-hint"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
        />
        <p id="new-password-hint" className="text-xs text-slate-600 dark:text-slate-400">{t('fields.passwordHint', { min: PASSWORD_MIN_LENGTH })}</p>
      </div>
      {problem && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">{problem}</p>
      )}
      <div className="flex gap-2">
        <Button type="submit" className="flex-1" disabled={pending}>
          {pending ? t('password.saving') : t('password.submit')}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          {t('password.cancel')}
        </Button>
      </div>
    </form>
  )
}
