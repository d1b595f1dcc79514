import { Button, Card, CardDescription, CardHeader, CardTitle } from '@tempbox/ui'
import { Activity, Globe, Mail, Users, type LucideIcon } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PageHero } from '../../components/page/page-hero'
import { SectionHeading } from '../../components/page/section-heading'
import { StatCard } from '../../components/page/stat-card'
import { usePageMeta } from '../../components/page/use-page-meta'

// The about page keeps its own figures (spec §1: the two pages show different statistics).
const STATS: { key: string; icon: LucideIcon }[] = [
  { key: 'emails', icon: Mail },
  { key: 'users', icon: Users },
  { key: 'uptime', icon: Activity },
  { key: 'languages', icon: Globe },
]
const TOOLS = ['tempEmail', 'linkShortener', 'wordCounter', 'qrGenerator', 'ipFinder'] as const
const TECHNOLOGY = ['react', 'fastify', 'sqlite', 'smtp', 'i18n', 'privacy'] as const

export function AboutRoute() {
  const { t } = useTranslation('pages')
  usePageMeta('about')
  return (
    <>
      <PageHero title={t('about.hero.title')} subtitle={t('about.hero.subtitle')} />
      <section className="px-4 py-12" aria-labelledby="about-stats">
        <h2 id="about-stats" className="sr-only">{t('about.statsTitle')}</h2>
        <div className="mx-auto grid max-w-5xl gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {STATS.map(({ key, icon }) => (
            <StatCard key={key} icon={icon} value={t(`about.stats.${key}.value`)} label={t(`about.stats.${key}.label`)} />
          ))}
        </div>
      </section>
      <section className="bg-slate-50 px-4 py-12 dark:bg-slate-900" aria-labelledby="about-mission">
        <SectionHeading id="about-mission" title={t('about.mission.title')} />
        <div className="mx-auto max-w-3xl space-y-4 text-lg text-slate-700 dark:text-slate-300">
          <p>{t('about.mission.p1')}</p>
          <p>{t('about.mission.p2')}</p>
        </div>
      </section>
      <section className="px-4 py-12" aria-labelledby="about-tools">
        <SectionHeading id="about-tools" title={t('about.tools.title')} subtitle={t('about.tools.subtitle')} />
        <ul className="mx-auto grid max-w-5xl gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {TOOLS.map((key) => (
            <li key={key}>
              <Card className="h-full">
                <CardHeader>
                  <CardTitle>{t(`about.tools.items.${key}.title`)}</CardTitle>
                  <CardDescription>{t(`about.tools.items.${key}.description`)}</CardDescription>
                </CardHeader>
              </Card>
            </li>
          ))}
        </ul>
      </section>
      <section className="bg-slate-50 px-4 py-12 dark:bg-slate-900" aria-labelledby="about-tech">
        <SectionHeading id="about-tech" title={t('about.technology.title')} subtitle={t('about.technology.subtitle')} />
        <ul className="mx-auto grid max-w-5xl gap-4 sm:grid-cols-2">
          {TECHNOLOGY.map((key) => (
            <li key={key} className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-950">
              <h3 className="font-semibold">{t(`about.technology.items.${key}.title`)}</h3>
              <p className="text-sm text-slate-700 dark:text-slate-300">{t(`about.technology.items.${key}.description`)}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="px-4 py-16 text-center" aria-labelledby="about-cta">
        <h2 id="about-cta" className="text-3xl font-bold">{t('about.cta.title')}</h2>
        <p className="mx-auto mt-3 max-w-2xl text-slate-700 dark:text-slate-300">{t('about.cta.text')}</p>
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to="/">{t('about.cta.start')}</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/contact">{t('about.cta.contact')}</Link>
          </Button>
        </div>
      </section>
    </>
  )
}
