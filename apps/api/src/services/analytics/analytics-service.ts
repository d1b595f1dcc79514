import { createHmac } from 'node:crypto'
import type { Db } from '@tempbox/db'
import type { DashboardStats, RealtimeStats } from '@tempbox/types'
import { AppError } from '../../errors.js'
import * as repo from '../../repositories/analytics-repository.js'
import { countContactsSince } from '../../repositories/contact-repository.js'
import { DailySalt } from '../../service-state/in-process-visitor-salts.js'
import type { VisitorSalts } from '../../service-state/shared-state.js'

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000
const PATH_MAX_LENGTH = 200
const TOP_LIMIT = 10
export const UNKNOWN_COUNTRY = 'Unknown'

export type CountryOf = (ip: string) => Promise<string | null>

/** UTC calendar day, `YYYY-MM-DD`. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

function startOfDay(ms: number): number {
  return ms - (ms % DAY_MS)
}

/** Keeps the path only: no query string or fragment (they can carry tokens or addresses). */
export function normalisePath(raw: string): string | null {
  const path = raw.trim().split(/[?#]/, 1)[0] ?? ''
  if (!path.startsWith('/') || path.startsWith('//')) return null
  return path.length > PATH_MAX_LENGTH ? path.slice(0, PATH_MAX_LENGTH) : path
}

/**
 * Privacy-preserving analytics: aggregate counters per day/path/country, and one row per visitor per day keyed by
 * HMAC(salt, ip + user agent). The salt is random, lives only in memory and is replaced at each UTC midnight
 * (DailySalt), so hashes can't be linked across days or reversed to an IP once the day is over. No raw IP is stored.
 * Several API processes share one salt through the cluster's primary, and several nodes through PostgreSQL, where the
 * day's row is deleted when the day ends (PostgresVisitorSalts), so a visitor is one visitor whichever serves them.
 */
export class AnalyticsService {
  constructor(
    private readonly db: Db,
    private readonly countryOf: CountryOf,
    private readonly salts: VisitorSalts = new DailySalt(),
  ) {}

  async visitorHash(ip: string, userAgent: string, now = Date.now()): Promise<string> {
    const salt = await this.salts.forDay(dayOf(now))
    return createHmac('sha256', salt).update(`${ip}\n${userAgent}`).digest('base64url')
  }

  async recordPageView(input: { path: string; ip: string; userAgent: string }, now = Date.now()): Promise<void> {
    const path = normalisePath(input.path)
    if (!path) throw new AppError('validation_failed', 'Path must start with "/".', { path: 'Path must start with "/".' })
    const visitorHash = await this.visitorHash(input.ip, input.userAgent, now)
    const country = (await this.countryOf(input.ip).catch(() => null)) || UNKNOWN_COUNTRY
    await repo.recordPageView(this.db, {
      day: dayOf(now),
      path,
      country,
      visitorHash,
      now,
    })
  }

  async realtime(now = Date.now()): Promise<RealtimeStats> {
    const today = dayOf(now)
    const midnight = startOfDay(now)
    const [visitorsToday, pageViewsToday, emailsToday, contactsToday, activeUsers] = await Promise.all([
      repo.countVisitors(this.db, today),
      repo.sumPageViews(this.db, today),
      repo.countGeneratedSince(this.db, today),
      countContactsSince(this.db, midnight),
      // Yesterday's rows too, so the last hour spans midnight.
      repo.countActiveVisitors(this.db, dayOf(now - HOUR_MS), now - HOUR_MS),
    ])
    return { visitorsToday, pageViewsToday, emailsToday, contactsToday, activeUsers }
  }

  async dashboard(days: number, now = Date.now()): Promise<DashboardStats> {
    const firstMidnight = startOfDay(now) - (days - 1) * DAY_MS
    const fromDay = dayOf(firstMidnight)
    const [totalVisitors, totalPageViews, totalEmails, totalContacts, topCountries, topPages, visitors, views] = await Promise.all([
      repo.countVisitors(this.db, fromDay),
      repo.sumPageViews(this.db, fromDay),
      repo.countGeneratedSince(this.db, fromDay),
      countContactsSince(this.db, firstMidnight),
      repo.topCountries(this.db, fromDay, TOP_LIMIT),
      repo.topPages(this.db, fromDay, TOP_LIMIT),
      repo.visitorsPerDay(this.db, fromDay),
      repo.pageViewsPerDay(this.db, fromDay),
    ])
    const visitsPerDay = Array.from({ length: days }, (_, i) => {
      const day = dayOf(firstMidnight + i * DAY_MS)
      return { day, visitors: visitors.get(day) ?? 0, pageViews: views.get(day) ?? 0 }
    })
    return { days, totalVisitors, totalPageViews, totalEmails, totalContacts, topCountries, topPages, visitsPerDay }
  }
}
