import { CONTACT_LIMITS } from '@tempbox/types/constants'
import { Button, Input, Label, Textarea, toast } from '@tempbox/ui'
import { Send } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { sendContactMessage } from '../api/send-contact'

const EMPTY = { name: '', email: '', subject: '', message: '' }

/**
 * The contact form. `page` (on /contact) has a subject and 6 message rows; `home` (the home page's section)
 * has none, so it sends a fixed subject. The two places word the success text differently (spec §8).
 */
export function ContactForm({ variant }: { variant: 'page' | 'home' }) {
  const { t } = useTranslation('pages')
  const id = useId()
  const [values, setValues] = useState(EMPTY)
  const [isSending, setIsSending] = useState(false)
  const hasSubject = variant === 'page'

  function update(field: keyof typeof EMPTY) {
    return (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }))
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    setIsSending(true)
    try {
      await sendContactMessage({ ...values, subject: hasSubject ? values.subject : t('contactForm.homeSubject') })
      setValues(EMPTY)
      toast({
        title: t('contactForm.successTitle'),
        description: variant === 'page' ? t('contactForm.successPage') : t('contactForm.successHome'),
      })
    } catch {
      toast({ title: t('contactForm.failureTitle'), description: t('contactForm.failure'), variant: 'destructive' })
    } finally {
      setIsSending(false)
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" data-testid={`contact-form-${variant}`}>
      <div className={hasSubject ? 'grid gap-4 sm:grid-cols-2' : 'space-y-4'}>
        <div className="space-y-2">
          <Label htmlFor={`${id}-name`}>{t('contactForm.name')}</Label>
          <Input id={`${id}-name`} name="name" autoComplete="name" required maxLength={CONTACT_LIMITS.name} value={values.name} onChange={update('name')} placeholder={t('contactForm.namePlaceholder')} />
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${id}-email`}>{t('contactForm.email')}</Label>
          <Input id={`${id}-email`} name="email" type="email" autoComplete="email" required maxLength={CONTACT_LIMITS.email} value={values.email} onChange={update('email')} placeholder={t('contactForm.emailPlaceholder')} dir="ltr" />
        </div>
      </div>
      {hasSubject && (
        <div className="space-y-2">
          <Label htmlFor={`${id}-subject`}>{t('contactForm.subject')}</Label>
          <Input id={`${id}-subject`} name="subject" required maxLength={CONTACT_LIMITS.subject} value={values.subject} onChange={update('subject')} placeholder={t('contactForm.subjectPlaceholder')} />
        </div>
      )}
      <div className="space-y-2">
        <Label htmlFor={`${id}-message`}>{t('contactForm.message')}</Label>
        <Textarea id={`${id}-message`} name="message" required rows={hasSubject ? 6 : 4} maxLength={CONTACT_LIMITS.message} value={values.message} onChange={update('message')} placeholder={t('contactForm.messagePlaceholder')} />
      </div>
      <Button type="submit" disabled={isSending} className="w-full sm:w-auto">
        <Send aria-hidden="true" />
        {isSending ? t('contactForm.sending') : t('contactForm.send')}
      </Button>
    </form>
  )
}
