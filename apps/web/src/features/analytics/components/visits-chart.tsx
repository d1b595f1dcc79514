import type { DailyVisits } from '@tempbox/types'
import { useTranslation } from 'react-i18next'

const WIDTH = 600
const HEIGHT = 160
const PAD = 4
/** About this many dates under the chart: enough to place any bar, few enough not to crowd a phone's width. */
const DATE_LABELS = 6

/** Indexes of the days to label: evenly spread, always the first and the last, never two crowding each other. */
export function labelledDays(count: number): number[] {
  if (count <= 0) return []
  const step = Math.max(1, Math.ceil((count - 1) / (DATE_LABELS - 1)))
  const picked: number[] = []
  for (let i = 0; i < count; i += step) picked.push(i)
  const last = count - 1
  if (picked.at(-1) !== last) {
    if (picked.length > 1 && last - picked.at(-1)! < step / 2) picked.pop()
    picked.push(last)
  }
  return picked
}

/**
 * Visitors per day as bars on their own scale, page views as a line on theirs (page views are several times the
 * visitors: on one scale the bars would lie flat). Time runs in the reading direction: right to left in Arabic,
 * Hebrew and Urdu, dates and bars alike.
 */
export function VisitsChart({ data }: { data: DailyVisits[] }) {
  const { t, i18n } = useTranslation('analytics')
  const isRtl = i18n.dir(i18n.language) === 'rtl'
  const maxVisitors = Math.max(1, ...data.map((d) => d.visitors))
  const maxViews = Math.max(1, ...data.map((d) => d.pageViews))
  const slot = (WIDTH - PAD * 2) / Math.max(1, data.length)
  /** Left edge of day i's slot, mirrored in right-to-left languages. */
  const slotX = (i: number) => PAD + slot * (isRtl ? data.length - 1 - i : i)
  const y = (v: number, max: number) => HEIGHT - PAD - (v / max) * (HEIGHT - PAD * 2)
  const line = data.map((d, i) => `${(slotX(i) + slot / 2).toFixed(1)},${y(d.pageViews, maxViews).toFixed(1)}`).join(' ')
  const day = new Intl.DateTimeFormat(i18n.language, { month: 'short', day: 'numeric', timeZone: 'UTC' })
  const number = new Intl.NumberFormat(i18n.language)
  const label = (d: DailyVisits) => t('chart.point', { day: day.format(new Date(d.day)), visitors: d.visitors, views: d.pageViews })

  return (
    <figure>
      <div className="flex justify-between text-xs font-medium tabular-nums" aria-hidden>
        {/* Each scale's top at its own side: visitors where time starts, page views where it ends. */}
        <span className="text-blue-700 dark:text-blue-300" data-testid="visitors-scale-max">{number.format(maxVisitors)}</span>
        <span className="text-emerald-700 dark:text-emerald-300" data-testid="views-scale-max">{number.format(maxViews)}</span>
      </div>
      {/* Stretched to the card's width; the line keeps its stroke width. */}
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="h-40 w-full" role="img" aria-label={t('chart.label')}>
        {data.map((d, i) => (
          <rect
            key={d.day}
            data-day={d.day}
            x={slotX(i) + slot * 0.15}
            width={slot * 0.7}
            y={y(d.visitors, maxVisitors)}
            height={HEIGHT - PAD - y(d.visitors, maxVisitors)}
            className="fill-blue-500/70 dark:fill-blue-400/70"
          >
            <title>{label(d)}</title>
          </rect>
        ))}
        <polyline points={line} fill="none" strokeWidth={2} vectorEffect="non-scaling-stroke" className="stroke-emerald-600 dark:stroke-emerald-400" />
      </svg>
      <div className="relative mt-1 h-4 text-xs text-slate-600 dark:text-slate-400" aria-hidden data-testid="chart-dates">
        {labelledDays(data.length).map((i) => {
          // Under its bar; the first and last keep inside the chart's edges.
          const centre = ((slotX(i) + slot / 2) / WIDTH) * 100
          const shift = centre < 8 ? '0' : centre > 92 ? '-100%' : '-50%'
          return (
            <span key={data[i]!.day} className="absolute whitespace-nowrap" style={{ left: `${centre}%`, transform: `translateX(${shift})` }}>
              {day.format(new Date(data[i]!.day))}
            </span>
          )
        })}
      </div>
      <figcaption className="mt-2 flex flex-wrap items-center justify-center gap-3 text-xs text-slate-600 dark:text-slate-400">
        <span className="flex items-center gap-1"><span className="inline-block size-3 rounded-sm bg-blue-500/70" aria-hidden />{t('chart.visitorsScale', { max: number.format(maxVisitors) })}</span>
        <span className="flex items-center gap-1"><span className="inline-block h-0.5 w-4 bg-emerald-600" aria-hidden />{t('chart.pageViewsScale', { max: number.format(maxViews) })}</span>
      </figcaption>
    </figure>
  )
}
