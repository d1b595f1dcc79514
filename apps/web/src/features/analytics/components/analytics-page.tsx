import { Button, Card, CardContent } from '@tempbox/ui'
import { Lock, ShieldAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useCurrentUser } from '../../../lib/current-user'
import { AnalyticsDashboard } from './analytics-dashboard'

/** /analytics: guests are asked to sign in, plain users are refused, admins and owners see the dashboard. */
export function AnalyticsPage() {
  const { t } = useTranslation('analytics')
  const { user, isAdmin, isLoading } = useCurrentUser()

  if (isLoading) return <p className="py-16 text-center text-slate-600 dark:text-slate-400">{t('loading')}</p>
  if (!user) {
    return (
      <Card className="mx-auto max-w-md text-center">
        <CardContent className="space-y-4 p-8">
          <Lock className="mx-auto size-10 text-slate-500" aria-hidden />
          <h1 className="text-2xl font-bold">{t('authRequired.title')}</h1>
          <p className="text-slate-600 dark:text-slate-400">{t('authRequired.text')}</p>
          <Button asChild>
            <Link to="/">{t('authRequired.home')}</Link>
          </Button>
        </CardContent>
      </Card>
    )
  }
  if (!isAdmin) {
    return (
      <Card className="mx-auto max-w-md text-center">
        <CardContent className="space-y-4 p-8">
          <ShieldAlert className="mx-auto size-10 text-red-600" aria-hidden />
          <h1 className="text-2xl font-bold">{t('denied.title')}</h1>
          <p>{t('denied.role', { role: user.role || 'user' })}</p>
          <p className="text-slate-600 dark:text-slate-400">{t('denied.text')}</p>
        </CardContent>
      </Card>
    )
  }
  return <AnalyticsDashboard />
}
