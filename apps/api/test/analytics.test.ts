import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildTestApp } from './helper.js'
import { bearer, signUp } from './auth-helpers.js'
import { expectRateLimited } from './rate-limit-answer.js'
import type { App } from '../src/app.js'
import { AnalyticsService, dayOf, normalisePath } from '../src/services/analytics/analytics-service.js'

let app: App
beforeEach(async () => {
  app = await buildTestApp()
})
afterEach(() => app.close())

const ADMIN_ROUTES = [
  { method: 'GET', url: '/api/analytics/realtime' },
  { method: 'GET', url: '/api/analytics/dashboard?days=7' },
  { method: 'GET', url: '/api/analytics/contacts?page=1&limit=10' },
  { method: 'PATCH', url: '/api/analytics/contacts/1/status', payload: { status: 'read' } },
] as const

async function contact(subject: string) {
  return (await app.inject({ method: 'POST', url: '/api/contact', payload: { name: 'N', email: 'n@example.com', subject, message: 'm' } })).json().id as number
}

describe('access', () => {
  it('answers 401 to guests and bad tokens, 403 to users, 200 to admins and owners', async () => {
    await contact('s')
    const user = await signUp(app)
    const admin = await signUp(app, 'admin')
    const owner = await signUp(app, 'owner')
    for (const route of ADMIN_ROUTES) {
      expect((await app.inject({ ...route })).statusCode).toBe(401)
      expect((await app.inject({ ...route, headers: bearer(user.token + 'x') })).statusCode).toBe(401)
      const denied = await app.inject({ ...route, headers: bearer(user.token) })
      expect(denied.statusCode).toBe(403)
      expect(denied.json()).toEqual({ error: 'Only admins and owners can view analytics data.', code: 'forbidden' })
      expect((await app.inject({ ...route, headers: bearer(admin.token) })).statusCode).toBe(200)
      expect((await app.inject({ ...route, headers: bearer(owner.token) })).statusCode).toBe(200)
    }
  })
})

describe('page views and figures', () => {
  it('counts views per path and distinct visitors per day, with Unknown for a private IP, and stores no IP', async () => {
    const ua = { 'user-agent': 'TestBrowser/1' }
    for (const path of ['/', '/', '/contact?x=secret#top']) {
      const res = await app.inject({ method: 'POST', url: '/api/analytics/pageview', payload: { path }, headers: ua })
      expect(res.statusCode).toBe(204)
    }
    await app.inject({ method: 'POST', url: '/api/analytics/pageview', payload: { path: '/' }, headers: { 'user-agent': 'Other/2' } })
    expect((await app.inject({ method: 'POST', url: '/api/analytics/pageview', payload: { path: 'http://evil' } })).statusCode).toBe(400)
    await app.inject({ method: 'POST', url: '/api/email/generate' })

    const owner = await signUp(app, 'owner')
    await contact('hello')
    const realtime = (await app.inject({ method: 'GET', url: '/api/analytics/realtime', headers: bearer(owner.token) })).json()
    expect(realtime).toEqual({ visitorsToday: 2, pageViewsToday: 4, emailsToday: 1, contactsToday: 1, activeUsers: 2 })

    const dash = (await app.inject({ method: 'GET', url: '/api/analytics/dashboard?days=7', headers: bearer(owner.token) })).json()
    expect(dash).toMatchObject({
      days: 7, totalVisitors: 2, totalPageViews: 4, totalEmails: 1, totalContacts: 1,
      topCountries: [{ country: 'Unknown', count: 2 }],
      topPages: [{ page: '/', count: 3 }, { page: '/contact', count: 1 }],
    })
    expect(dash.visitsPerDay).toHaveLength(7)
    expect(dash.visitsPerDay[6]).toEqual({ day: dayOf(Date.now()), visitors: 2, pageViews: 4 })

    const stored = JSON.stringify(await app.db.selectFrom('visitor_daily').selectAll().execute())
    expect(stored).not.toContain('127.0.0.1')
    expect((await app.inject({ method: 'GET', url: '/api/analytics/dashboard?days=12', headers: bearer(owner.token) })).statusCode).toBe(400)
  })

  it('is rate-limited per IP: 120 views a minute, then 429 counting nothing, while another IP is still counted', async () => {
    const view = (remoteAddress: string) => app.inject({ method: 'POST', url: '/api/analytics/pageview', payload: { path: '/' }, remoteAddress })
    const statuses: number[] = []
    for (let i = 0; i < 120; i++) statuses.push((await view('203.0.113.90')).statusCode)
    expect(statuses).toEqual(Array<number>(120).fill(204))
    expectRateLimited(await view('203.0.113.90'), 60)
    expectRateLimited(await view('203.0.113.90'), 60)
    expect((await view('198.51.100.90')).statusCode).toBe(204)

    const owner = await signUp(app, 'owner')
    const realtime = (await app.inject({ method: 'GET', url: '/api/analytics/realtime', headers: bearer(owner.token) })).json()
    expect(realtime).toMatchObject({ pageViewsToday: 121, visitorsToday: 2 })
  })

  it('rotates the visitor salt daily, so the same person hashes differently on another day', async () => {
    const service = new AnalyticsService(app.db, async () => null)
    const day1 = Date.UTC(2026, 0, 1, 12)
    const a = await service.visitorHash('203.0.113.9', 'UA', day1)
    expect(await service.visitorHash('203.0.113.9', 'UA', day1 + 3_600_000)).toBe(a)
    const b = await service.visitorHash('203.0.113.9', 'UA', day1 + 86_400_000)
    expect(b).not.toBe(a)
    // A view from the day before, arriving late, must not bring the old salt back or change today's.
    expect(await service.visitorHash('203.0.113.9', 'UA', day1)).not.toBe(a)
    expect(await service.visitorHash('203.0.113.9', 'UA', day1 + 86_400_000 + 60_000)).toBe(b)
    expect(normalisePath('/a?b#c')).toBe('/a')
    expect(normalisePath('//evil.com')).toBeNull()
  })

  it('keeps counting generated addresses after the sweep deletes them', async () => {
    const owner = await signUp(app, 'owner')
    await app.inject({ method: 'POST', url: '/api/email/generate' })
    await app.inject({ method: 'POST', url: '/api/email/generate' })
    // An address from 3 days ago, counted on its own day.
    const old = Date.now() - 3 * 86_400_000
    await app.db.insertInto('inbox').values({ address: 'old@tempbox.local', local_part: 'old', domain: 'tempbox.local', user_id: null, created_at: old, expires_at: old + 1 }).execute()
    await app.inboxService.sweep()
    expect(await app.db.selectFrom('inbox').select('address').where('address', '=', 'old@tempbox.local').execute()).toEqual([])

    const realtime = (await app.inject({ method: 'GET', url: '/api/analytics/realtime', headers: bearer(owner.token) })).json()
    expect(realtime.emailsToday).toBe(2)
    const week = (await app.inject({ method: 'GET', url: '/api/analytics/dashboard?days=7', headers: bearer(owner.token) })).json()
    expect(week.totalEmails).toBe(3)
  })

  it('uses the country from the shared IP lookup', async () => {
    const service = new AnalyticsService(app.db, async () => 'Germany')
    await service.recordPageView({ path: '/', ip: '203.0.113.9', userAgent: 'UA' })
    const rows = await app.db.selectFrom('page_view_daily').selectAll().execute()
    expect(rows).toEqual([{ day: dayOf(Date.now()), path: '/', country: 'Germany', views: 1 }])
  })
})

describe('contact messages', () => {
  it('pages newest first and moves new to read or replied only', async () => {
    const first = await contact('first')
    await app.db.updateTable('contact_message').set({ submitted_at: 1000 }).where('id', '=', first).execute()
    const second = await contact('second')
    const admin = await signUp(app, 'admin')

    const list = (await app.inject({ method: 'GET', url: '/api/analytics/contacts?page=1&limit=1', headers: bearer(admin.token) })).json()
    expect(list.total).toBe(2)
    expect(list.contacts.map((c: { subject: string }) => c.subject)).toEqual(['second'])
    expect(list.contacts[0]).toMatchObject({ id: second, name: 'N', email: 'n@example.com', message: 'm', status: 'new' })
    const page2 = (await app.inject({ method: 'GET', url: '/api/analytics/contacts?page=2&limit=1', headers: bearer(admin.token) })).json()
    expect(page2.contacts.map((c: { subject: string }) => c.subject)).toEqual(['first'])

    const patch = (status: string, id = second) =>
      app.inject({ method: 'PATCH', url: `/api/analytics/contacts/${id}/status`, payload: { status }, headers: bearer(admin.token) })
    const read = await patch('read')
    expect(read.statusCode).toBe(200)
    expect(read.json().contact.status).toBe('read')
    expect((await patch('replied', first)).json().contact.status).toBe('replied')
    for (const bad of ['new', 'archived', '']) {
      const res = await patch(bad)
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toBe('Status must be "read" or "replied".')
    }
    expect((await patch('read', 999)).statusCode).toBe(404)
  })
})
