import { PASSWORD_MIN_LENGTH } from '@tempbox/types'
import { Button, Input, Label, useToast } from '@tempbox/ui'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { register, useSession } from '../api/auth'

export function RegisterForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('account')
  const { toast } = useToast()
  const { signIn } = useSession()
  const [email, setEmail] = useState('')
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [pending, setPending] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setPending(true)
    try {
      const result = await register({ email, password, username: username.trim() || undefined })
      await signIn(result)
      toast({ title: t('toast.accountCreated'), description: t('toast.accountCreatedText') })
      onDone()
    } catch (err) {
      toast({ variant: 'destructive', title: t('toast.registerFailed'), description: (err as Error).message || t('toast.registerFailedText') })
    } finally {
      setPending(false)
    }
  }

  return (
    <form onSubmit={submit} className="mt-4 space-y-4">
      <div className="space-y-2">
        <Label htmlFor="register-email">{t('fields.email')}</Label>
        <Input id="register-email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} placeholder={t('fields.emailPlaceholder')} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="register-username">{t('fields.username')}</Label>
        <Input id="register-username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} maxLength={50} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="register-password">{t('fields.password')}</Label>
        <Input
          id="register-password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-describedby="register-password-hint"
        />
        <p id="register-password-hint" className="text-xs text-slate-600 dark:text-slate-400">
          {t('fields.passwordHint', { min: PASSWORD_MIN_LENGTH })}
        </p>
      </div>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? t('creating') : t('createAccount')}
      </Button>
    </form>
  )
}
