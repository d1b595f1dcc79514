import { Button, Card, CardContent, CardHeader, CardTitle } from '@tempbox/ui'
import { Activity, Eye, Globe, Mail, MessageSquare, Users } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { DEFAULT_PERIOD, PERIODS, useDashboardStats, useRealtimeStats, type Period } from '../api/analytics'
import { ContactList } from './contact-list'
import { VisitsChart } from './visits-chart'

function StatCard({ label, value, icon, testId }: { label: string; value: number | undefined; icon: ReactNode; testId?: string }) {
  const { i18n } = useTranslation()
  return (
    <Card>
      <CardContent className="flex items-center justify-between gap-3 p-4">
        <div>
          <p className="text-sm text-slate-600 dark:text-slate-400">{label}</p>
          <p className="text-2xl font-bold" data-testid={testId}>
            {value === undefined ? '–' : new Intl.NumberFormat(i18n.language).format(value)}
          </p>
        </div>
        <span className="text-blue-700 dark:text-blue-400" aria-hidden>{icon}</span>
      </CardContent>
    </Card>
  )
}

function RankedList({ rows, empty }: { rows: { label: string; count: number }[]; empty: string }) {
  const max = Math.max(1, ...rows.map((r) => r.count))
  if (rows.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">{empty}</p>
  return (
    <ol className="space-y-2">
      {rows.map((r) => (
        <li key={r.label} className="text-sm">
          <div className="flex justify-between gap-2">
            <span className="truncate">{r.label}</span>
            <span className="font-medium tabular-nums">{r.count}</span>
          </div>
          <div className="mt-1 h-1.5 rounded bg-slate-100 dark:bg-slate-800" aria-hidden>
            <div className="h-1.5 rounded bg-blue-600" style={{ width: `${(r.count / max) * 100}%` }} />
          </div>
        </li>
      ))}
    </ol>
  )
}

/** The admin dashboard of spec §2; only mounted for signed-in admins and owners. */
export function AnalyticsDashboard() {
  const { t } = useTranslation('analytics')
  const [days, setDays] = useState<Period>(DEFAULT_PERIOD)
  const realtime = useRealtimeStats(true)
  const dashboard = useDashboardStats(true, days)
  const r = realtime.data
  const d = dashboard.data

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">{t('title')}</h1>
          <p className="text-slate-600 dark:text-slate-400">{t('subtitle')}</p>
        </div>
        <div className="flex gap-2" role="group" aria-label={t('period.label')}>
          {PERIODS.map((p) => (
            <Button key={p} size="sm" variant={p === days ? 'default' : 'outline'} aria-pressed={p === days} onClick={() => setDays(p)}>
              {t('period.lastDays', { days: p })}
            </Button>
          ))}
        </div>
      </div>

      <section aria-labelledby="realtime-title">
        <h2 id="realtime-title" className="mb-3 flex items-center gap-2 text-lg font-semibold">
          <Activity className="size-5 text-emerald-600" aria-hidden />
          {t('realtime.title')}
        </h2>
        {realtime.error && <p role="alert" className="mb-2 text-sm text-red-700 dark:text-red-400">{t('errors.realtime')}</p>}
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          <StatCard label={t('realtime.visitorsToday')} value={r?.visitorsToday} icon={<Users />} />
          <StatCard label={t('realtime.pageViewsToday')} value={r?.pageViewsToday} icon={<Eye />} />
          <StatCard label={t('realtime.emailsToday')} value={r?.emailsToday} icon={<Mail />} />
          <StatCard label={t('realtime.contactsToday')} value={r?.contactsToday} icon={<MessageSquare />} />
          <StatCard label={t('realtime.activeUsers')} value={r?.activeUsers} icon={<Activity />} />
        </div>
      </section>

      <section aria-labelledby="overview-title">
        <h2 id="overview-title" className="mb-3 text-lg font-semibold">{t('overview.title', { days })}</h2>
        {dashboard.error && <p role="alert" className="mb-2 text-sm text-red-700 dark:text-red-400">{t('errors.dashboard')}</p>}
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <StatCard label={t('overview.totalVisitors')} value={d?.totalVisitors} icon={<Users />} />
          <StatCard label={t('overview.pageViews')} value={d?.totalPageViews} icon={<Eye />} />
          <StatCard label={t('overview.emailsGenerated')} value={d?.totalEmails} icon={<Mail />} />
          <StatCard label={t('overview.contactSubmissions')} value={d?.totalContacts} icon={<MessageSquare />} testId="total-contacts" />
        </div>
      </section>

      <Card>
        <CardHeader>
          <CardTitle>{t('chart.title')}</CardTitle>
        </CardHeader>
        <CardContent>{d ? <VisitsChart data={d.visitsPerDay} /> : <p className="text-sm text-slate-600 dark:text-slate-400">{t('loading')}</p>}</CardContent>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2"><Globe className="size-5" aria-hidden />{t('countries.title')}</CardTitle>
          </CardHeader>
          <CardContent>
            <RankedList
              rows={(d?.topCountries ?? []).map((c) => ({ label: c.country === 'Unknown' ? t('countries.unknown') : c.country, count: c.count }))}
              empty={t('countries.empty')}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2"><Eye className="size-5" aria-hidden />{t('pages.title')}</CardTitle>
          </CardHeader>
          <CardContent>
            <RankedList rows={(d?.topPages ?? []).map((p) => ({ label: p.page, count: p.count }))} empty={t('pages.empty')} />
          </CardContent>
        </Card>
      </div>

      <ContactList />
    </div>
  )
}
