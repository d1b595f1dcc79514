import { Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { Outlet } from 'react-router'
import { PageViewReporter } from '../../features/analytics/components/page-view-reporter'
import { ThemeSync } from '../../features/theme/components/theme-sync'
import { Footer } from './footer'
import { Header } from './header'
import { PageFallback } from './page-fallback'
import { ScrollButtons } from './scroll-buttons'
import { ScrollManager } from './scroll-manager'

export function RootLayout() {
  const { t } = useTranslation('common')
  return (
    <div className="flex min-h-dvh flex-col bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <ThemeSync />
      <ScrollManager />
      <PageViewReporter />
      <a href="#main" className="sr-only z-50 rounded-md bg-blue-700 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:start-4 focus:top-4">
        {t('a11y.skipToContent')}
      </a>
      <Header />
      <main id="main" className="flex-1">
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <ScrollButtons />
    </div>
  )
}
