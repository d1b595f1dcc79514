import { Button, FieldError, Input, Label, useToast } from '@tempbox/ui'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { describedBy, fieldErrorsOf, type FieldErrors } from '../../../lib/field-errors'
import { login, useSession } from '../api/auth'

const FORM_ERROR_ID = 'login-error'

export function LoginForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('account')
  const { toast } = useToast()
  const { signIn } = useSession()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [pending, setPending] = useState(false)
  const [errors, setErrors] = useState<FieldErrors<'email' | 'password'>>({})

  async function submit(event: FormEvent) {
    event.preventDefault()
    setPending(true)
    setErrors({})
    try {
      const result = await login({ email, password })
      await signIn(result)
      toast({ title: t('toast.welcomeBack'), description: t('toast.welcomeBackText', { email: result.user.email }) })
      onDone()
    } catch (err) {
      const found = fieldErrorsOf(err, ['email', 'password'], t('toast.loginFailedText'))
      setErrors(found)
      toast({ variant: 'destructive', title: t('toast.loginFailed'), description: (err as Error).message || t('toast.loginFailedText') })
    } finally {
      setPending(false)
    }
  }

  /** Any edit drops the errors: they were about what was sent. */
  const edit = (set: (value: string) => void, value: string) => {
    set(value)
    setErrors({})
  }

  // "Invalid email or password" is about both fields (which one is wrong is not told): both point at it.
  const emailError = errors.email ?? errors.form
  const passwordError = errors.password ?? errors.form

  return (
    <form onSubmit={submit} className="mt-4 space-y-4">
      <div className="space-y-2">
        <Label htmlFor="login-email">{t('fields.email')}</Label>
        <Input id="login-email" type="email" autoComplete="email" required value={email} onChange={(e) => edit(setEmail, e.target.value)} placeholder={t('fields.emailPlaceholder')} {...describedBy(errors.email ? 'login-email-error' : FORM_ERROR_ID, emailError)} />
        {errors.email && <FieldError id="login-email-error">{errors.email}</FieldError>}
      </div>
      <div className="space-y-2">
        <Label htmlFor="login-password">{t('fields.password')}</Label>
        <Input id="login-password" type="password" autoComplete="current-password" required value={password} onChange={(e) => edit(setPassword, e.target.value)} {...describedBy(errors.password ? 'login-password-error' : FORM_ERROR_ID, passwordError)} />
        {errors.password && <FieldError id="login-password-error">{errors.password}</FieldError>}
        {errors.form && <FieldError id={FORM_ERROR_ID}>{errors.form}</FieldError>}
      </div>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? t('signingIn') : t('signIn')}
      </Button>
    </form>
  )
}
