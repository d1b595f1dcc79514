import { Card, CardDescription, CardHeader, CardTitle } from '@tempbox/ui'
import { Activity, Gift, Globe, Headphones, Mail, MessageCircle, ShieldCheck, Smartphone, UserX, Users, Zap, type LucideIcon } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { ContactForm } from '../../features/contact/components/contact-form'
import { SectionHeading } from '../../components/page/section-heading'
import { StatCard } from '../../components/page/stat-card'
import { useSiteEmails } from '../../lib/site-emails'

const FEATURES: { key: string; icon: LucideIcon }[] = [
  { key: 'privacy', icon: ShieldCheck },
  { key: 'instant', icon: Zap },
  { key: 'noSignup', icon: UserX },
  { key: 'languages', icon: Globe },
  { key: 'mobile', icon: Smartphone },
  { key: 'free', icon: Gift },
]

const STATS: { key: string; icon: LucideIcon }[] = [
  { key: 'emails', icon: Mail },
  { key: 'users', icon: Users },
  { key: 'uptime', icon: Activity },
]

const CONTACT_CARDS: { key: string; icon: LucideIcon; value?: 'support' }[] = [
  { key: 'email', icon: Mail, value: 'support' },
  { key: 'support', icon: Headphones },
  { key: 'chat', icon: MessageCircle },
]

/** The home page below the tools: six feature cards, the about section with three stats, the contact section. */
export function HomeSections() {
  const { t } = useTranslation('pages')
  const emails = useSiteEmails()
  return (
    <>
      <section className="bg-slate-50 px-4 py-16 dark:bg-slate-900" aria-labelledby="features-title">
        <SectionHeading id="features-title" title={t('home.features.title')} subtitle={t('home.features.subtitle')} />
        <ul className="mx-auto grid max-w-6xl gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(({ key, icon: Icon }) => (
            <li key={key}>
              <Card className="h-full">
                <CardHeader>
                  <Icon aria-hidden="true" className="size-8 text-blue-700 dark:text-blue-400" />
                  <CardTitle>{t(`home.features.items.${key}.title`)}</CardTitle>
                  <CardDescription>{t(`home.features.items.${key}.description`)}</CardDescription>
                </CardHeader>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section id="about" className="scroll-mt-20 px-4 py-16" aria-labelledby="about-title">
        <SectionHeading id="about-title" title={t('home.about.title')} subtitle={t('home.about.text')} />
        <div className="mx-auto grid max-w-4xl gap-6 sm:grid-cols-3">
          {STATS.map(({ key, icon }) => (
            <StatCard key={key} icon={icon} value={t(`home.about.stats.${key}.value`)} label={t(`home.about.stats.${key}.label`)} />
          ))}
        </div>
      </section>

      <section id="contact" className="scroll-mt-20 bg-slate-50 px-4 py-16 dark:bg-slate-900" aria-labelledby="home-contact-title">
        <SectionHeading id="home-contact-title" title={t('home.contact.title')} subtitle={t('home.contact.subtitle')} />
        <div className="mx-auto grid max-w-5xl gap-8 lg:grid-cols-2">
          <Card className="p-6">
            <ContactForm variant="home" />
          </Card>
          <ul className="space-y-4">
            {CONTACT_CARDS.map(({ key, icon: Icon, value }) => (
              <li key={key}>
                <Card className="flex items-start gap-4 p-5">
                  <Icon aria-hidden="true" className="mt-1 size-6 shrink-0 text-blue-700 dark:text-blue-400" />
                  <div>
                    <h3 className="font-semibold">{t(`home.contact.cards.${key}.title`)}</h3>
                    <p className="text-sm text-slate-700 dark:text-slate-300">{value ? emails[value] : t(`home.contact.cards.${key}.text`)}</p>
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  )
}
