import type { ComponentType } from 'react'
import { createBrowserRouter, RouterProvider } from 'react-router'
import { ensureNamespaces } from '../lib/i18n'
import { PageMeta } from '../components/page/page-meta'
import type { PageKey } from '../components/page/use-page-meta'
import { HomeRoute } from './routes/home'
import { SiteLayout } from './site-layout'

/** Every page but home is its own chunk, keeping the home page's first JavaScript small. */
function page<M>(load: () => Promise<M>, pick: (m: M) => ComponentType, namespaces: readonly string[] = []) {
  return async () => {
    const [mod] = await Promise.all([load(), ensureNamespaces(namespaces)])
    return { Component: pick(mod) }
  }
}

/** For routes whose files set no title of their own. */
function withMeta(key: PageKey, Inner: ComponentType): ComponentType {
  return function RouteWithMeta() {
    return (
      <>
        <PageMeta page={key} />
        <Inner />
      </>
    )
  }
}

const router = createBrowserRouter([
  {
    path: '/',
    Component: SiteLayout,
    HydrateFallback: () => null,
    children: [
      { index: true, Component: HomeRoute },
      { path: 'blog', lazy: page(() => import('./routes/blog'), (m) => m.BlogRoute, ['blog']) },
      { path: 'about', lazy: page(() => import('./routes/about'), (m) => m.AboutRoute) },
      { path: 'contact', lazy: page(() => import('./routes/contact'), (m) => m.ContactRoute) },
      { path: 'legal', lazy: page(() => import('./routes/legal'), (m) => m.LegalIndexRoute, ['legal']) },
      { path: 'privacy-policy', lazy: page(() => import('./routes/legal-document'), (m) => m.PrivacyPolicyRoute, ['legal']) },
      { path: 'terms', lazy: page(() => import('./routes/legal-document'), (m) => m.TermsRoute, ['legal']) },
      { path: 'disclaimer', lazy: page(() => import('./routes/legal-document'), (m) => m.DisclaimerRoute, ['legal']) },
      { path: 'cookie-policy', lazy: page(() => import('./routes/legal-document'), (m) => m.CookiePolicyRoute, ['legal']) },
      { path: 'gdpr', lazy: page(() => import('./routes/legal-document'), (m) => m.GdprRoute, ['legal']) },
      { path: 'analytics', lazy: page(() => import('./routes/analytics'), (m) => withMeta('analytics', m.AnalyticsRoute), ['analytics', 'account']) },
      { path: 'admin-setup', lazy: page(() => import('./routes/admin-setup'), (m) => withMeta('adminSetup', m.AdminSetupRoute), ['admin', 'account']) },
      { path: '*', lazy: page(() => import('./routes/not-found'), (m) => m.NotFoundRoute) },
    ],
  },
])

export function AppRouter() {
  return <RouterProvider router={router} />
}
