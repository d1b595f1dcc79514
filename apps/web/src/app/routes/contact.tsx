import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@tempbox/ui'
import { Clock, Mail, MapPin, MessageCircle, Users } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { ContactForm } from '../../features/contact/components/contact-form'
import { PageHero } from '../../components/page/page-hero'
import { SectionHeading } from '../../components/page/section-heading'
import { usePageMeta } from '../../components/page/use-page-meta'
import { useSiteEmails } from '../../lib/site-emails'

const FAQS = ['lifetime', 'free', 'privacy', 'send', 'languages'] as const

export function ContactRoute() {
  const { t } = useTranslation('pages')
  const { support } = useSiteEmails()
  usePageMeta('contact')
  return (
    <>
      <PageHero title={t('contact.hero.title')} subtitle={t('contact.hero.subtitle')} />
      <section className="px-4 py-12">
        <div className="mx-auto grid max-w-6xl gap-8 lg:grid-cols-3">
          <Card className="lg:col-span-2">
            <CardHeader>
              <CardTitle>{t('contact.form.title')}</CardTitle>
              <CardDescription>{t('contact.form.subtitle')}</CardDescription>
            </CardHeader>
            <CardContent>
              <ContactForm variant="page" />
            </CardContent>
          </Card>
          <div className="space-y-4">
            <Card>
              <CardHeader>
                <CardTitle>{t('contact.info.title')}</CardTitle>
              </CardHeader>
              <CardContent className="space-y-3 text-sm">
                <p className="flex items-center gap-2"><Mail aria-hidden="true" className="size-4 text-blue-700 dark:text-blue-400" />{support && <a className="text-blue-700 underline-offset-4 hover:underline dark:text-blue-400" href={`mailto:${support}`}>{support}</a>}</p>
                <p className="flex items-center gap-2"><MapPin aria-hidden="true" className="size-4 text-blue-700 dark:text-blue-400" />{t('contact.info.location')}</p>
                <p className="flex items-center gap-2"><Users aria-hidden="true" className="size-4 text-blue-700 dark:text-blue-400" />{t('contact.info.users')}</p>
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <Mail aria-hidden="true" className="size-6 text-blue-700 dark:text-blue-400" />
                <CardTitle>{t('contact.emailUs.title')}</CardTitle>
                <CardDescription>{t('contact.emailUs.text')}</CardDescription>
              </CardHeader>
            </Card>
            <Card>
              <CardHeader>
                <MessageCircle aria-hidden="true" className="size-6 text-blue-700 dark:text-blue-400" />
                <CardTitle>{t('contact.liveChat.title')}</CardTitle>
                <CardDescription>{t('contact.liveChat.text')}</CardDescription>
              </CardHeader>
            </Card>
            <p className="flex items-start gap-2 rounded-lg bg-blue-50 p-4 text-sm text-blue-950 dark:bg-blue-950 dark:text-blue-50">
              <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              {t('contact.responseTime')}
            </p>
          </div>
        </div>
      </section>
      <section className="bg-slate-50 px-4 py-12 dark:bg-slate-900" aria-labelledby="faq-title">
        <SectionHeading id="faq-title" title={t('contact.faq.title')} />
        <div className="mx-auto max-w-3xl space-y-3">
          {FAQS.map((key) => (
            <details key={key} className="group rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-950">
              <summary className="cursor-pointer font-semibold">{t(`contact.faq.items.${key}.q`)}</summary>
              <p className="mt-2 text-slate-700 dark:text-slate-300">{t(`contact.faq.items.${key}.a`)}</p>
            </details>
          ))}
        </div>
      </section>
    </>
  )
}
