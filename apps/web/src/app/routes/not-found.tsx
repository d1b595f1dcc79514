import { Button } from '@tempbox/ui'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { usePageMeta } from '../../components/page/use-page-meta'

export function NotFoundRoute() {
  const { t } = useTranslation('common')
  usePageMeta('notFound')
  return (
    <section className="flex min-h-[60vh] flex-col items-center justify-center px-4 py-16 text-center">
      <p className="text-6xl font-extrabold text-blue-700 dark:text-blue-400" aria-hidden="true">404</p>
      <h1 className="mt-4 text-3xl font-bold">{t('notFound.title')}</h1>
      <p className="mt-3 max-w-md text-slate-700 dark:text-slate-300">{t('notFound.text')}</p>
      <Button asChild className="mt-6">
        <Link to="/">{t('notFound.home')}</Link>
      </Button>
    </section>
  )
}
