import { Button, Card, CardDescription, CardHeader, CardTitle } from '@tempbox/ui'
import { Activity, ArrowDown, Clock, Gift, Globe, Headphones, Mail, MessageCircle, ShieldCheck, Smartphone, UserX, Users, Zap, type LucideIcon } from 'lucide-react'
import { lazy, Suspense, type ComponentType } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { PageFallback } from '../../components/layout/page-fallback'
import { ContactForm } from '../../features/contact/components/contact-form'
import { SUPPORT_EMAIL } from '../../features/site/lib/site-config'
import { SectionHeading } from '../../features/site/components/section-heading'
import { StatCard } from '../../features/site/components/stat-card'
import { usePageMeta } from '../../features/site/hooks/use-page-meta'

// Tools load after the first view so the hero paints from a small bundle.
function lazyTool<M>(load: () => Promise<M>, pick: (m: M) => ComponentType) {
  return lazy(async () => ({ default: pick(await load()) }))
}
const TempEmailTool = lazyTool(() => import('../../features/temp-email/components/temp-email-tool'), (m) => m.TempEmailTool)
const LinkShortenerTool = lazyTool(() => import('../../features/link-shortener/components/link-shortener-tool'), (m) => m.LinkShortenerTool)
const WordCounterTool = lazyTool(() => import('../../features/word-counter/components/word-counter-tool'), (m) => m.WordCounterTool)
const QrGeneratorTool = lazyTool(() => import('../../features/qr-generator/components/qr-generator-tool'), (m) => m.QrGeneratorTool)
const IpFinderTool = lazyTool(() => import('../../features/ip-finder/components/ip-finder-tool'), (m) => m.IpFinderTool)

const TOOLS = [TempEmailTool, LinkShortenerTool, WordCounterTool, QrGeneratorTool, IpFinderTool]

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

const CONTACT_CARDS: { key: string; icon: LucideIcon; value?: string }[] = [
  { key: 'email', icon: Mail, value: SUPPORT_EMAIL },
  { key: 'support', icon: Headphones },
  { key: 'chat', icon: MessageCircle },
]

export function HomeRoute() {
  const { t } = useTranslation('pages')
  const navigate = useNavigate()
  usePageMeta('home')

  return (
    <>
      <section className="bg-gradient-to-b from-blue-50 to-white px-4 py-16 sm:py-24 dark:from-slate-900 dark:to-slate-950" aria-labelledby="hero-title">
        <div className="mx-auto max-w-4xl text-center">
          <p className="mx-auto mb-4 inline-flex items-center gap-2 rounded-full bg-blue-100 px-3 py-1 text-sm font-medium text-blue-900 dark:bg-blue-950 dark:text-blue-100">
            <Clock aria-hidden="true" className="size-4" />
            {t('home.hero.badge')}
          </p>
          <h1 id="hero-title" className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl dark:text-white">
            {t('home.hero.title')}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-700 dark:text-slate-300">{t('home.hero.subtitle')}</p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Button size="lg" onClick={() => void navigate({ hash: '#tools' })} data-testid="get-started">
              {t('home.hero.getStarted')}
              <ArrowDown aria-hidden="true" />
            </Button>
            <Button size="lg" variant="outline" onClick={() => document.getElementById('about')?.scrollIntoView({ behavior: 'smooth' })}>
              {t('home.hero.learnMore')}
            </Button>
          </div>
        </div>
      </section>

      <section id="tools" className="scroll-mt-20 px-4 py-16" aria-labelledby="tools-title">
        <SectionHeading id="tools-title" title={t('home.tools.title')} subtitle={t('home.tools.subtitle')} />
        <div className="mx-auto flex max-w-5xl flex-col gap-10">
          {TOOLS.map((Tool, i) => (
            <Suspense key={i} fallback={<PageFallback minHeight="16rem" />}>
              <Tool />
            </Suspense>
          ))}
        </div>
      </section>

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
                    <p className="text-sm text-slate-700 dark:text-slate-300">{value ?? t(`home.contact.cards.${key}.text`)}</p>
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
