import { PASSWORD_MIN_LENGTH } from '@tempbox/types/constants'
import { Button, FieldError, Input, Label, useToast } from '@tempbox/ui'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { describedBy, fieldErrorsOf, type FieldErrors } from '../../../lib/field-errors'
import { register, useSession } from '../api/auth'

type Field = 'email' | 'username' | 'password'
const FIELDS: readonly Field[] = ['email', 'username', 'password']

export function RegisterForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('account')
  const { toast } = useToast()
  const { signIn } = useSession()
  const [email, setEmail] = useState('')
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [pending, setPending] = useState(false)
  const [errors, setErrors] = useState<FieldErrors<Field>>({})

  async function submit(event: FormEvent) {
    event.preventDefault()
    setPending(true)
    setErrors({})
    try {
      const result = await register({ email, password, username: username.trim() || undefined })
      await signIn(result)
      toast({ title: t('toast.accountCreated'), description: t('toast.accountCreatedText') })
      onDone()
    } catch (err) {
      setErrors(fieldErrorsOf(err, FIELDS, t('toast.registerFailedText')))
      toast({ variant: 'destructive', title: t('toast.registerFailed'), description: (err as Error).message || t('toast.registerFailedText') })
    } finally {
      setPending(false)
    }
  }

  /** Editing a field drops its own error and the form's (the next try will say afresh). */
  const edit = (field: Field, set: (value: string) => void) => (value: string) => {
    set(value)
    setErrors((current) => {
      const next = { ...current }
      delete next[field]
      delete next.form
      return next
    })
  }

  return (
    <form onSubmit={submit} className="mt-4 space-y-4">
      <div className="space-y-2">
        <Label htmlFor="register-email">{t('fields.email')}</Label>
        <Input
          id="register-email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => edit('email', setEmail)(e.target.value)}
          placeholder={t('fields.emailPlaceholder')}
          {...describedBy('register-email-error', errors.email)}
        />
        {errors.email && <FieldError id="register-email-error">{errors.email}</FieldError>}
      </div>
      <div className="space-y-2">
        <Label htmlFor="register-username">{t('fields.username')}</Label>
        <Input
          id="register-username"
          autoComplete="username"
          value={username}
          onChange={(e) => edit('username', setUsername)(e.target.value)}
          maxLength={50}
          {...describedBy('register-username-error', errors.username)}
        />
        {errors.username && <FieldError id="register-username-error">{errors.username}</FieldError>}
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
          onChange={(e) => edit('password', setPassword)(e.target.value)}
          {...describedBy('register-password-error', errors.password, 'register-password-hint')}
        />
        {errors.password && <FieldError id="register-password-error">{errors.password}</FieldError>}
        <p id="register-password-hint" className="text-xs text-slate-600 dark:text-slate-400">
          {t('fields.passwordHint', { min: PASSWORD_MIN_LENGTH })}
        </p>
      </div>
      {errors.form && <FieldError id="register-error">{errors.form}</FieldError>}
      <Button type="submit" className="w-full" disabled={pending} aria-describedby={errors.form ? 'register-error' : undefined}>
        {pending ? t('creating') : t('createAccount')}
      </Button>
    </form>
  )
}
