import { Button, Input, Label, useToast } from '@tempbox/ui'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { login, useSession } from '../api/auth'

export function LoginForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('account')
  const { toast } = useToast()
  const { signIn } = useSession()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [pending, setPending] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setPending(true)
    try {
      const result = await login({ email, password })
      await signIn(result)
      toast({ title: t('toast.welcomeBack'), description: t('toast.welcomeBackText', { email: result.user.email }) })
      onDone()
    } catch (err) {
      toast({ variant: 'destructive', title: t('toast.loginFailed'), description: (err as Error).message || t('toast.loginFailedText') })
    } finally {
      setPending(false)
    }
  }

  return (
    <form onSubmit={submit} className="mt-4 space-y-4">
      <div className="space-y-2">
        <Label htmlFor="login-email">{t('fields.email')}</Label>
        <Input id="login-email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} placeholder={t('fields.emailPlaceholder')} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="login-password">{t('fields.password')}</Label>
        <Input id="login-password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? t('signingIn') : t('signIn')}
      </Button>
    </form>
  )
}
