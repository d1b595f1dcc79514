import type { PublicUser } from '@tempbox/types'
import { Badge, Button, Input, Label, useToast } from '@tempbox/ui'
import { Inbox, KeyRound, LogOut, MonitorSmartphone, Trash2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useConfirm } from '../../../components/dialogs/use-confirm'
import { ApiError } from '../../../lib/api-client'
import { useCurrentAddress } from '../../../stores/current-address'
import { deleteAccount, signOutEverywhere, useSavedAddresses, useSession } from '../api/auth'
import { ChangePasswordForm } from './change-password-form'

/** Signed-in view: who you are, your saved addresses (switch inbox), change password, sign out (here or everywhere), delete account. */
export function AccountPanel({ user, onDone, onOpenInbox }: { user: PublicUser; onDone: () => void; onOpenInbox: () => void }) {
  const { t, i18n } = useTranslation('account')
  const { toast } = useToast()
  const { signOut } = useSession()
  const navigate = useNavigate()
  const currentEmail = useCurrentAddress((s) => s.email)
  const setAddress = useCurrentAddress((s) => s.setAddress)
  const saved = useSavedAddresses(true)
  const [deleting, setDeleting] = useState(false)
  const [deletePassword, setDeletePassword] = useState('')
  const [deleteProblem, setDeleteProblem] = useState<string | null>(null)
  const [changingPassword, setChangingPassword] = useState(false)
  const [endingSessions, setEndingSessions] = useState(false)
  const { confirm, dialog } = useConfirm()

  async function handleSignOut() {
    await signOut()
    toast({ title: t('toast.loggedOut'), description: t('toast.loggedOutText') })
    onDone()
  }

  async function handleSignOutEverywhere() {
    setEndingSessions(true)
    try {
      await signOutEverywhere()
      await signOut()
      toast({ title: t('toast.signedOutEverywhere'), description: t('toast.signedOutEverywhereText') })
      onDone()
    } catch (err) {
      toast({ variant: 'destructive', title: t('toast.signOutEverywhereFailed'), description: (err as Error).message || t('toast.signOutEverywhereFailedText') })
    } finally {
      setEndingSessions(false)
    }
  }

  async function handleDelete(event: FormEvent) {
    event.preventDefault()
    if (!deletePassword) return setDeleteProblem(t('danger.passwordRequired'))
    setDeleteProblem(null)
    const ok = await confirm({ title: t('deleteAccount'), description: t('deleteConfirm'), confirmLabel: t('deleteAccount'), destructive: true })
    if (!ok) return
    setDeleting(true)
    try {
      await deleteAccount(deletePassword)
      // Its saved addresses are gone with it, here too.
      for (const a of saved.data?.addresses ?? []) useCurrentAddress.getState().forget(a.email)
      await signOut()
      toast({ title: t('toast.accountDeleted'), description: t('toast.accountDeletedText') })
      onDone()
    } catch (err) {
      const message = err instanceof ApiError && err.code === 'wrong_password' ? t('danger.wrongPassword') : (err as Error).message || t('toast.deleteFailedText')
      if (err instanceof ApiError && err.code === 'wrong_password') setDeleteProblem(message)
      toast({ variant: 'destructive', title: t('toast.deleteFailed'), description: message })
    } finally {
      setDeleting(false)
    }
  }

  function openInbox(email: string, expiresAt: string) {
    setAddress(email, expiresAt)
    onOpenInbox()
    // The hash brings the inbox into view and focus (ScrollManager), from any page.
    void navigate({ pathname: '/', hash: '#temp-email' })
  }

  const addresses = saved.data?.addresses ?? []
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })

  return (
    <div className="space-y-5">
      <div className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
        <p className="font-medium break-all" data-testid="account-email">{user.email}</p>
        {user.username && <p className="text-slate-600 dark:text-slate-400">{user.username}</p>}
        <p className="mt-2 flex items-center gap-2">
          <span className="text-slate-600 dark:text-slate-400">{t('account.role')}</span>
          <Badge variant="secondary">{t(`roles.${user.role}`, { defaultValue: user.role })}</Badge>
        </p>
      </div>

      <section aria-labelledby="saved-addresses-title">
        <h3 id="saved-addresses-title" className="mb-2 text-sm font-semibold">{t('saved.title')}</h3>
        {saved.isLoading ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('saved.loading')}</p>
        ) : addresses.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('saved.empty')}</p>
        ) : (
          <ul className="max-h-48 space-y-2 overflow-y-auto">
            {addresses.map((a) => (
              <li key={a.email} className="flex items-center gap-2 rounded-md border border-slate-200 p-2 dark:border-slate-700">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-mono text-sm">{a.email}</p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">{t('saved.expires', { time: time.format(new Date(a.expiresAt)) })}</p>
                </div>
                {a.email === currentEmail ? (
                  <Badge variant="success">{t('saved.current')}</Badge>
                ) : (
                  <Button size="sm" variant="outline" onClick={() => openInbox(a.email, a.expiresAt)}>
                    <Inbox aria-hidden />
                    {t('saved.open')}{' '}
                    <span className="sr-only">{a.email}</span>
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      {changingPassword ? (
        <ChangePasswordForm onDone={() => setChangingPassword(false)} />
      ) : (
        <Button variant="outline" className="w-full" onClick={() => setChangingPassword(true)}>
          <KeyRound aria-hidden />
          {t('password.open')}
        </Button>
      )}

      <div className="flex flex-col gap-2 sm:flex-row">
        <Button variant="outline" className="flex-1" onClick={handleSignOut}>
          <LogOut aria-hidden />
          {t('signOut')}
        </Button>
        <Button variant="outline" className="flex-1" onClick={handleSignOutEverywhere} disabled={endingSessions}>
          <MonitorSmartphone aria-hidden />
          {t('signOutEverywhere')}
        </Button>
      </div>
      {/* noValidate: our own messages, in the reader's language, instead of the browser's. */}
      <form
        onSubmit={handleDelete}
        noValidate
        aria-labelledby="danger-zone-title"
        className="space-y-2 rounded-md border border-red-300 p-3 dark:border-red-800"
      >
        <h3 id="danger-zone-title" className="text-sm font-semibold text-red-800 dark:text-red-300">{t('danger.title')}</h3>
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('danger.text')}</p>
        <div className="space-y-2">
          <Label htmlFor="delete-password">{t('danger.password')}</Label>
          <Input
            id="delete-password"
            type="password"
            autoComplete="current-password"
            value={deletePassword}
            aria-invalid={deleteProblem ? true : undefined}
            aria-describedby={deleteProblem ? 'delete-password-problem' : undefined}
            onChange={(e) => setDeletePassword(e.target.value)}
          />
          {deleteProblem && <p id="delete-password-problem" role="alert" className="text-sm text-red-700 dark:text-red-300">{deleteProblem}</p>}
        </div>
        <Button type="submit" variant="destructive" className="w-full" disabled={deleting}>
          <Trash2 aria-hidden />
          {deleting ? t('deleting') : t('deleteAccount')}
        </Button>
      </form>
      {dialog}
    </div>
  )
}
