import { AnalyticsPage } from '../../features/analytics/components/analytics-page'

export function AnalyticsRoute() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <AnalyticsPage />
    </div>
  )
}
