import { Card, CardDescription, CardHeader, CardTitle } from '@tempbox/ui'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PageHero } from '../../components/page/page-hero'
import { usePageMeta } from '../../components/page/use-page-meta'

const DOCUMENTS = [
  { key: 'privacy', to: '/privacy-policy' },
  { key: 'terms', to: '/terms' },
  { key: 'disclaimer', to: '/disclaimer' },
  { key: 'cookies', to: '/cookie-policy' },
  { key: 'gdpr', to: '/gdpr' },
  { key: 'contact', to: '/contact' },
] as const

export function LegalIndexRoute() {
  const { t } = useTranslation('legal')
  usePageMeta('legal')
  return (
    <>
      <PageHero title={t('index.title')} subtitle={t('index.subtitle')} />
      <ul className="mx-auto grid max-w-5xl gap-6 px-4 py-12 sm:grid-cols-2 lg:grid-cols-3">
        {DOCUMENTS.map((d) => (
          <li key={d.key}>
            <Link to={d.to} className="block h-full rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600">
              <Card className="h-full transition-colors hover:border-blue-600">
                <CardHeader>
                  <CardTitle>{t(`index.items.${d.key}.title`)}</CardTitle>
                  <CardDescription>{t(`index.items.${d.key}.description`)}</CardDescription>
                </CardHeader>
              </Card>
            </Link>
          </li>
        ))}
      </ul>
    </>
  )
}
