import { Suspense, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Outlet } from 'react-router'
import { Footer } from './footer'
import { Header } from './header'
import { PageFallback } from './page-fallback'
import { ScrollButtons } from './scroll-buttons'
import { ScrollManager } from './scroll-manager'

/** What the app's features put into the frame of every page: the layout itself imports no feature. */
export interface LayoutSlots {
  /** Parts without a box of their own that run on every page (theme, page views). */
  background?: ReactNode
  /** The header's buttons between the store buttons and the small screens' menu. */
  headerActions?: ReactNode
  /** The small screens' menu, below its links. */
  menuSettings?: ReactNode
  /** The footer's settings, beside the copyright line. */
  footerSettings?: ReactNode
}

export function RootLayout({ background, headerActions, menuSettings, footerSettings }: LayoutSlots) {
  const { t } = useTranslation('common')
  return (
    <div className="flex min-h-dvh flex-col bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      {background}
      <ScrollManager />
      <a href="#main" className="sr-only z-50 rounded-md bg-blue-700 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:start-4 focus:top-4">
        {t('a11y.skipToContent')}
      </a>
      <Header actions={headerActions} menuSettings={menuSettings} />
      <main id="main" className="flex-1">
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer settings={footerSettings} />
      <ScrollButtons />
    </div>
  )
}
