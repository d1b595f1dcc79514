import { deferred } from '../components/layout/deferred'
import { RootLayout } from '../components/layout/root-layout'
import { PageViewReporter } from '../features/analytics/components/page-view-reporter'
import { ThemeSelect } from '../features/theme/components/theme-select'
import { ThemeSync } from '../features/theme/components/theme-sync'
import { ThemeToggle } from '../features/theme/components/theme-toggle'
import { ensureNamespaces } from '../lib/i18n'

const AccountDialog = deferred(
  () => Promise.all([import('../features/auth/components/account-dialog'), ensureNamespaces(['account'])]),
  ([m]) => m.AccountDialog,
)
const ApiKeysDialog = deferred(() => import('../features/public-apis/components/api-keys-dialog'), (m) => m.ApiKeysDialog)
const loadLanguagePicker = () => import('../features/language/components/language-picker')
// The small screens' menu shows the header's picker: loaded with the header, it is there when the menu opens.
const LanguagePicker = deferred(loadLanguagePicker, (m) => m.LanguagePicker, 'inline-block h-10 w-10 lg:w-32')
const FooterLanguagePicker = deferred(loadLanguagePicker, (m) => m.LanguagePicker, 'inline-block h-9 w-16')

/** The frame of every page with the features that live in it: theme, language, account, API keys, page views. */
export function SiteLayout() {
  return (
    <RootLayout
      background={
        <>
          <ThemeSync />
          <PageViewReporter />
        </>
      }
      headerActions={
        <>
          <ApiKeysDialog />
          <LanguagePicker variant="header" />
          <ThemeToggle />
          <AccountDialog />
        </>
      }
      menuSettings={<LanguagePicker variant="full" />}
      footerSettings={
        <>
          <FooterLanguagePicker variant="compact" />
          <ThemeSelect />
        </>
      }
    />
  )
}
