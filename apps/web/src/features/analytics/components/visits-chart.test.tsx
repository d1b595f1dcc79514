import i18n, { applyLanguage } from '../../../lib/i18n'
import { render, screen } from '@testing-library/react'
import type { DailyVisits } from '@tempbox/types'
import { afterEach, describe, expect, it } from 'vitest'
import { labelledDays, VisitsChart } from './visits-chart'

/** 30 days; page views ten times the visitors, the busiest day in the middle. */
const DATA: DailyVisits[] = Array.from({ length: 30 }, (_, i) => ({
  day: `2026-04-${String(i + 1).padStart(2, '0')}`,
  visitors: i === 14 ? 12 : 3,
  pageViews: i === 14 ? 120 : 30,
}))

const bar = (day: string) => document.querySelector(`rect[data-day="${day}"]`)!
const x = (day: string) => Number(bar(day).getAttribute('x'))

afterEach(async () => {
  await applyLanguage('en')
})

describe('VisitsChart', () => {
  it('labels enough dates: the first, the last and some between, in order', () => {
    render(<VisitsChart data={DATA} />)
    const dates = screen.getByTestId('chart-dates').textContent
    for (const d of ['Apr 1', 'Apr 30']) expect(dates).toContain(d)
    expect(screen.getByTestId('chart-dates').children.length).toBeGreaterThanOrEqual(5)
    expect(labelledDays(30)).toEqual([0, 6, 12, 18, 24, 29])
    expect(labelledDays(7)).toEqual([0, 2, 4, 6])
    expect(labelledDays(1)).toEqual([0])
  })

  it('gives visitors and page views their own scales, each reaching the top', () => {
    render(<VisitsChart data={DATA} />)
    expect(screen.getByTestId('visitors-scale-max')).toHaveTextContent('12')
    expect(screen.getByTestId('views-scale-max')).toHaveTextContent('120')
    expect(screen.getByText('Visitors (bars, scale 0–12)')).toBeInTheDocument()
    expect(screen.getByText('Page views (line, scale 0–120)')).toBeInTheDocument()
    // The busiest day's bar is full height although its page views are ten times more.
    expect(Number(bar('2026-04-15').getAttribute('y'))).toBe(4)
    const points = document.querySelector('polyline')!.getAttribute('points')!.split(' ')
    expect(points[14]!.split(',')[1]).toBe('4.0')
  })

  it('runs time from right to left in Arabic, dates and bars alike', async () => {
    await applyLanguage('ar')
    render(<VisitsChart data={DATA} />)
    expect(i18n.dir(i18n.language)).toBe('rtl')
    expect(x('2026-04-01')).toBeGreaterThan(x('2026-04-30'))
    const labels = [...screen.getByTestId('chart-dates').children] as HTMLElement[]
    expect(parseFloat(labels[0]!.style.left)).toBeGreaterThan(parseFloat(labels.at(-1)!.style.left))
  })

  it('runs time from left to right in English', () => {
    render(<VisitsChart data={DATA} />)
    expect(x('2026-04-01')).toBeLessThan(x('2026-04-30'))
  })
})
