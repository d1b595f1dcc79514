import { sql } from 'kysely'
import type { Db } from '@tempbox/db'

/** One page view: bumps the day/path/country counter and upserts the visitor's row for the day. */
export async function recordPageView(
  db: Db,
  v: { day: string; path: string; country: string; visitorHash: string; now: number },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('page_view_daily')
      .values({ day: v.day, path: v.path, country: v.country, views: 1 })
      .onConflict((oc) => oc.columns(['day', 'path', 'country']).doUpdateSet({ views: sql`page_view_daily.views + 1` }))
      .execute()
    await trx
      .insertInto('visitor_daily')
      .values({ day: v.day, visitor_hash: v.visitorHash, country: v.country, last_seen_at: v.now })
      .onConflict((oc) => oc.columns(['day', 'visitor_hash']).doUpdateSet({ last_seen_at: v.now }))
      .execute()
  })
}

export async function countVisitors(db: Db, fromDay: string): Promise<number> {
  const row = await db
    .selectFrom('visitor_daily')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('day', '>=', fromDay)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function countActiveVisitors(db: Db, fromDay: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('visitor_daily')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('day', '>=', fromDay)
    .where('last_seen_at', '>=', since)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function sumPageViews(db: Db, fromDay: string): Promise<number> {
  const row = await db
    .selectFrom('page_view_daily')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('views'), sql<number>`0`).as('n'))
    .where('day', '>=', fromDay)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Visitors per country (a visitor seen on two days counts on both). */
export async function topCountries(db: Db, fromDay: string, limit: number) {
  const rows = await db
    .selectFrom('visitor_daily')
    .select(['country', (eb) => eb.fn.countAll<number>().as('count')])
    .where('day', '>=', fromDay)
    .groupBy('country')
    .orderBy('count', 'desc')
    .orderBy('country')
    .limit(limit)
    .execute()
  return rows.map((r) => ({ country: r.country, count: Number(r.count) }))
}

export async function topPages(db: Db, fromDay: string, limit: number) {
  const rows = await db
    .selectFrom('page_view_daily')
    .select(['path', (eb) => eb.fn.sum<number>('views').as('count')])
    .where('day', '>=', fromDay)
    .groupBy('path')
    .orderBy('count', 'desc')
    .orderBy('path')
    .limit(limit)
    .execute()
  return rows.map((r) => ({ page: r.path, count: Number(r.count) }))
}

export async function visitorsPerDay(db: Db, fromDay: string) {
  const rows = await db
    .selectFrom('visitor_daily')
    .select(['day', (eb) => eb.fn.countAll<number>().as('n')])
    .where('day', '>=', fromDay)
    .groupBy('day')
    .execute()
  return new Map(rows.map((r) => [r.day, Number(r.n)]))
}

export async function pageViewsPerDay(db: Db, fromDay: string) {
  const rows = await db
    .selectFrom('page_view_daily')
    .select(['day', (eb) => eb.fn.sum<number>('views').as('n')])
    .where('day', '>=', fromDay)
    .groupBy('day')
    .execute()
  return new Map(rows.map((r) => [r.day, Number(r.n)]))
}

/** Addresses generated from a day on, from the per-day counter (the inboxes themselves are swept after 24 h). */
export async function countGeneratedSince(db: Db, fromDay: string): Promise<number> {
  const row = await db
    .selectFrom('inbox_created_daily')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('count'), sql<number>`0`).as('n'))
    .where('day', '>=', fromDay)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
