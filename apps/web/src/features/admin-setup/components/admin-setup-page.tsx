import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, FieldError, Input, Label, useToast } from '@tempbox/ui'
import { CheckCircle2, Copy, KeyRound, Wand2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useSWRConfig } from 'swr'
import { ApiError } from '../../../lib/api-client'
import { describedBy, fieldErrorsOf, type FieldErrors } from '../../../lib/field-errors'
import { CURRENT_USER_KEY, useCurrentUser } from '../../../lib/current-user'
import { promoteOwner, SETUP_STATUS_KEY, useSetupStatus } from '../api/setup'

const FOLLOW_UP_DELAY_MS = 2000

/**
 * /admin-setup (spec §2). The spec keeps the key visible on this page; the server only hands it out while setup is
 * open (and not at all in production, where the page says the key is in the server log). Only the signed-in account
 * can be promoted; once setup is done the page just says so.
 */
export function AdminSetupPage() {
  const { t } = useTranslation('admin')
  const { toast } = useToast()
  const { mutate } = useSWRConfig()
  const { user } = useCurrentUser()
  const status = useSetupStatus()
  const [email, setEmail] = useState('')
  const [secretKey, setSecretKey] = useState('')
  const [pending, setPending] = useState(false)
  const [done, setDone] = useState(false)
  const [errors, setErrors] = useState<FieldErrors<'email' | 'secretKey'>>({})
  const key = status.data?.secretKey ?? ''
  const keyInLog = status.data?.keyInLog === true

  function autoFill() {
    if (user && !email) setEmail(user.email)
    if (key) setSecretKey(key)
  }

  async function copyKey() {
    try {
      await navigator.clipboard.writeText(key)
      toast({ title: t('copied'), description: t('copiedText') })
    } catch {
      toast({ variant: 'destructive', title: t('copyFailed'), description: t('copyFailedText') })
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!email.trim() || !secretKey.trim()) {
      // Spec §5's sentence, at each empty field.
      setErrors({ ...(!email.trim() && { email: t('fillAll') }), ...(!secretKey.trim() && { secretKey: t('fillAll') }) })
      toast({ variant: 'destructive', title: t('error'), description: t('fillAll') })
      return
    }
    setErrors({})
    setPending(true)
    try {
      await promoteOwner({ email: email.trim(), secretKey: secretKey.trim() })
      setDone(true)
      toast({ title: t('success'), description: t('promoted') })
      setTimeout(() => toast({ title: t('success'), description: t('refreshNote') }), FOLLOW_UP_DELAY_MS)
      await Promise.all([mutate(CURRENT_USER_KEY), mutate(SETUP_STATUS_KEY)])
    } catch (err) {
      const message = err instanceof ApiError ? err.message || t('somethingWrong') : t('noConnection')
      // A wrong key names no field in its answer, but it is about the key field.
      setErrors(err instanceof ApiError && err.code === 'invalid_setup_key' ? { secretKey: message } : fieldErrorsOf(err, ['email', 'secretKey'], message))
      toast({ variant: 'destructive', title: t('error'), description: message })
    } finally {
      setPending(false)
    }
  }

  /** Editing a field drops its own error and the form's; the other field's stays. */
  function edit(field: 'email' | 'secretKey', set: (value: string) => void, value: string) {
    set(value)
    setErrors((current) => {
      const other = field === 'email' ? 'secretKey' : 'email'
      return current[other] ? { [other]: current[other] } : {}
    })
  }

  const closed = status.data?.open === false

  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div className="text-center">
        <KeyRound className="mx-auto mb-2 size-10 text-blue-700 dark:text-blue-400" aria-hidden />
        <h1 className="text-3xl font-bold">{t('title')}</h1>
        <p className="text-slate-600 dark:text-slate-400">{t('subtitle')}</p>
      </div>

      {closed || done ? (
        <Card>
          <CardContent className="space-y-4 p-6 text-center">
            <CheckCircle2 className="mx-auto size-10 text-green-600" aria-hidden />
            <h2 className="text-xl font-semibold">{t('complete.title')}</h2>
            <p className="text-slate-600 dark:text-slate-400">{t('complete.text')}</p>
            <Button asChild>
              <Link to="/analytics">{t('goToAnalytics')}</Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>{t('form.title')}</CardTitle>
            <CardDescription>{t('form.description')}</CardDescription>
          </CardHeader>
          <CardContent>
            <div className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950">
              <p className="font-medium">{t('keyLabel')}</p>
              {keyInLog ? (
                <p className="mt-1" data-testid="setup-key-in-log">{t('keyInLog')}</p>
              ) : (
                <p className="mt-1 font-mono break-all" data-testid="setup-key">{status.isLoading ? t('loading') : key}</p>
              )}
              <div className="mt-2 flex gap-2">
                <Button size="sm" variant="outline" onClick={autoFill} disabled={!key && !user}>
                  <Wand2 aria-hidden />
                  {t('autoFill')}
                </Button>
                <Button size="sm" variant="outline" onClick={copyKey} disabled={!key}>
                  <Copy aria-hidden />
                  {t('copy')}
                </Button>
              </div>
            </div>
            {!user && (
              <p role="note" className="mb-4 rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">{t('signInFirst')}</p>
            )}
            {/* noValidate: an empty field must show the spec's own message, not the browser's. */}
            <form onSubmit={submit} noValidate className="space-y-4">
              <div className="space-y-2">
                <Label htmlFor="setup-email">{t('fields.email')}</Label>
                <Input id="setup-email" type="email" autoComplete="email" value={email} onChange={(e) => edit('email', setEmail, e.target.value)} placeholder={t('fields.emailPlaceholder')} {...describedBy('setup-email-error', errors.email)} />
                {errors.email && <FieldError id="setup-email-error">{errors.email}</FieldError>}
              </div>
              <div className="space-y-2">
                <Label htmlFor="setup-key">{t('fields.secretKey')}</Label>
                <Input id="setup-key" type="password" autoComplete="off" value={secretKey} onChange={(e) => edit('secretKey', setSecretKey, e.target.value)} {...describedBy('setup-key-error', errors.secretKey)} />
                {errors.secretKey && <FieldError id="setup-key-error">{errors.secretKey}</FieldError>}
              </div>
              {errors.form && <FieldError id="setup-error">{errors.form}</FieldError>}
              <Button type="submit" className="w-full" disabled={pending} aria-describedby={errors.form ? 'setup-error' : undefined}>
                {pending ? t('processing') : t('promote')}
              </Button>
            </form>
          </CardContent>
        </Card>
      )}

      <Card>
        <CardHeader>
          <CardTitle>{t('steps.title')}</CardTitle>
        </CardHeader>
        <CardContent>
          <ol className="list-decimal space-y-2 ps-5 text-sm">
            <li>{t('steps.one')}</li>
            {/* "The key shown above" only while it is shown: after setup, or with the key in the log, it is not. */}
            <li>{closed || done ? t('steps.twoClosed') : keyInLog ? t('steps.twoFromLog') : t('steps.two')}</li>
            <li>{t('steps.three')}</li>
            <li>{t('steps.four')}</li>
          </ol>
          <p className="mt-4 text-sm">
            <Link to="/analytics" className="font-medium text-blue-700 underline-offset-4 hover:underline dark:text-blue-400">
              {t('goToAnalytics')}
            </Link>
          </p>
        </CardContent>
      </Card>
    </div>
  )
}
