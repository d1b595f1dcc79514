import type { ContactMessage } from '@tempbox/types'
import { Badge, Button, Card, CardContent, CardHeader, CardTitle } from '@tempbox/ui'
import { MessageSquare } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { updateContactStatus, useContacts } from '../api/analytics'

const BADGE_VARIANT = { new: 'default', read: 'secondary', replied: 'success' } as const

function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('analytics')
  // A missing status counts as new; anything we don't know is shown as Unknown (spec §3/§4).
  const known = (status || 'new') as keyof typeof BADGE_VARIANT
  const variant = BADGE_VARIANT[known] ?? 'outline'
  return <Badge variant={variant} data-testid="contact-status">{t(`contacts.status.${known in BADGE_VARIANT ? known : 'unknown'}`)}</Badge>
}

function ContactCard({ contact, onChange }: { contact: ContactMessage; onChange: () => Promise<unknown> }) {
  const { t, i18n } = useTranslation('analytics')
  const [busy, setBusy] = useState(false)
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })

  async function mark(status: 'read' | 'replied') {
    setBusy(true)
    try {
      await updateContactStatus(contact.id, status)
      await onChange()
    } catch (err) {
      // Spec §8: a failed status change is logged only.
      console.error('Failed to update contact status', err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <li className="rounded-md border border-slate-200 p-4 dark:border-slate-700" data-testid="contact-card">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold">{contact.name}</p>
        <StatusBadge status={contact.status} />
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        <a href={`mailto:${contact.email}`} className="underline-offset-2 hover:underline">{contact.email}</a>
        {' · '}
        <time dateTime={contact.submittedAt}>{date.format(new Date(contact.submittedAt))}</time>
      </p>
      <p className="mt-2 font-medium">{contact.subject}</p>
      <p className="line-clamp-2 text-sm text-slate-700 dark:text-slate-300">{contact.message}</p>
      {(contact.status || 'new') === 'new' && (
        <div className="mt-3 flex gap-2">
          <Button size="sm" variant="outline" disabled={busy} onClick={() => mark('read')}>{t('contacts.markRead')}</Button>
          <Button size="sm" variant="outline" disabled={busy} onClick={() => mark('replied')}>{t('contacts.markReplied')}</Button>
        </div>
      )}
    </li>
  )
}

export function ContactList() {
  const { t } = useTranslation('analytics')
  const contacts = useContacts(true)
  const list = contacts.data?.contacts ?? []

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2"><MessageSquare className="size-5" aria-hidden />{t('contacts.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        {contacts.error && <p role="alert" className="mb-2 text-sm text-red-700 dark:text-red-400">{t('errors.contacts')}</p>}
        {contacts.isLoading ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('loading')}</p>
        ) : list.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('contacts.empty')}</p>
        ) : (
          <ul className="max-h-[32rem] space-y-3 overflow-y-auto pe-1" tabIndex={0} aria-label={t('contacts.title')}>
            {list.map((c) => (
              <ContactCard key={c.id} contact={c} onChange={() => contacts.mutate()} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
