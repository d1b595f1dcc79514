import { Button } from '@tempbox/ui'
import { ArrowDown, Clock } from 'lucide-react'
import { lazy, Suspense, type ComponentType } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { PageFallback } from '../../components/layout/page-fallback'
import { SectionHeading } from '../../components/page/section-heading'
import { usePageMeta } from '../../components/page/use-page-meta'
import { ensureNamespaces } from '../../lib/i18n'

// Tools load after the first view so the hero paints from a small bundle.
function lazyTool<M>(load: () => Promise<M>, pick: (m: M) => ComponentType, namespaces: readonly string[] = ['email', 'tools']) {
  return lazy(async () => {
    const [mod] = await Promise.all([load(), ensureNamespaces(namespaces)])
    return { default: pick(mod) }
  })
}
const TempEmailTool = lazyTool(() => import('../../features/temp-email/components/temp-email-tool'), (m) => m.TempEmailTool)
const LinkShortenerTool = lazyTool(() => import('../../features/link-shortener/components/link-shortener-tool'), (m) => m.LinkShortenerTool)
const WordCounterTool = lazyTool(() => import('../../features/word-counter/components/word-counter-tool'), (m) => m.WordCounterTool)
const QrGeneratorTool = lazyTool(() => import('../../features/qr-generator/components/qr-generator-tool'), (m) => m.QrGeneratorTool)
const IpFinderTool = lazyTool(() => import('../../features/ip-finder/components/ip-finder-tool'), (m) => m.IpFinderTool)

const TOOLS = [TempEmailTool, LinkShortenerTool, WordCounterTool, QrGeneratorTool, IpFinderTool]

// Everything below the tools (features, about, contact) is its own chunk: it is below the fold.
const HomeSections = lazyTool(() => import('./home-sections'), (m) => m.HomeSections, [])

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

      <section id="tools" className="scroll-mt-20 px-2 py-16 sm:px-4" aria-labelledby="tools-title">
        <SectionHeading id="tools-title" title={t('home.tools.title')} subtitle={t('home.tools.subtitle')} />
        <div className="mx-auto flex max-w-5xl flex-col gap-10">
          {TOOLS.map((Tool, i) => (
            <Suspense key={i} fallback={<PageFallback minHeight="16rem" />}>
              <Tool />
            </Suspense>
          ))}
        </div>
      </section>

      <Suspense fallback={<PageFallback minHeight="100vh" />}>
        <HomeSections />
      </Suspense>
    </>
  )
}
