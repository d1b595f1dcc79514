import type { DailyVisits } from '@tempbox/types'
import { useTranslation } from 'react-i18next'

const WIDTH = 600
const HEIGHT = 160
const PAD = 4

/** Visitors per day as bars, with page views as a line over them: a shape to see at a glance. */
export function VisitsChart({ data }: { data: DailyVisits[] }) {
  const { t, i18n } = useTranslation('analytics')
  const max = Math.max(1, ...data.map((d) => Math.max(d.visitors, d.pageViews)))
  const slot = (WIDTH - PAD * 2) / Math.max(1, data.length)
  const y = (v: number) => HEIGHT - PAD - (v / max) * (HEIGHT - PAD * 2)
  const line = data.map((d, i) => `${(PAD + slot * i + slot / 2).toFixed(1)},${y(d.pageViews).toFixed(1)}`).join(' ')
  const day = new Intl.DateTimeFormat(i18n.language, { month: 'short', day: 'numeric', timeZone: 'UTC' })
  const label = (d: DailyVisits) => t('chart.point', { day: day.format(new Date(d.day)), visitors: d.visitors, views: d.pageViews })
  const first = data[0]
  const last = data[data.length - 1]

  return (
    <figure>
      {/* Stretched to the card's width; the line keeps its stroke width. */}
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="h-40 w-full" role="img" aria-label={t('chart.label')}>
        {data.map((d, i) => (
          <rect
            key={d.day}
            x={PAD + slot * i + slot * 0.15}
            width={slot * 0.7}
            y={y(d.visitors)}
            height={HEIGHT - PAD - y(d.visitors)}
            className="fill-blue-500/70 dark:fill-blue-400/70"
          >
            <title>{label(d)}</title>
          </rect>
        ))}
        <polyline points={line} fill="none" strokeWidth={2} vectorEffect="non-scaling-stroke" className="stroke-emerald-600 dark:stroke-emerald-400" />
      </svg>
      <figcaption className="mt-2 flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600 dark:text-slate-400">
        <span>{first ? day.format(new Date(first.day)) : ''}</span>
        <span className="flex items-center gap-3">
          <span className="flex items-center gap-1"><span className="inline-block size-3 rounded-sm bg-blue-500/70" aria-hidden />{t('chart.visitors')}</span>
          <span className="flex items-center gap-1"><span className="inline-block h-0.5 w-4 bg-emerald-600" aria-hidden />{t('chart.pageViews')}</span>
        </span>
        <span>{last ? day.format(new Date(last.day)) : ''}</span>
      </figcaption>
    </figure>
  )
}
