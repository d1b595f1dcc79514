import { Button, Input, Label, toast } from '@tempbox/ui'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'

/** Spec §2: the newsletter box has no recorded behaviour; there is no list yet, so nothing is sent or kept. */
export function NewsletterBox() {
  const { t } = useTranslation('blog')
  const id = useId()
  const [email, setEmail] = useState('')
  function submit(e: FormEvent) {
    e.preventDefault()
    setEmail('')
    toast({ title: t('newsletter.toastTitle'), description: t('newsletter.toastText') })
  }
  return (
    <section className="rounded-2xl bg-blue-700 p-8 text-white" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-2xl font-bold">{t('newsletter.title')}</h2>
      <p className="mt-2 text-blue-50">{t('newsletter.text')}</p>
      <form onSubmit={submit} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1 space-y-1">
          <Label htmlFor={`${id}-email`} className="text-white dark:text-white">{t('newsletter.emailLabel')}</Label>
          <Input id={`${id}-email`} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} placeholder={t('newsletter.placeholder')} dir="ltr" />
        </div>
        <Button type="submit" variant="secondary">{t('newsletter.subscribe')}</Button>
      </form>
    </section>
  )
}
