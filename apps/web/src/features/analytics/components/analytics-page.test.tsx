import '../../../lib/i18n'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { MemoryRouter } from 'react-router'
import { SWRConfig } from 'swr'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ContactMessage } from '@tempbox/types'
import { AUTH_TOKEN_KEY } from '../../../lib/api-client'
import { swrConfig } from '../../../lib/swr'
import { server } from '../../../testing/mocks/server'
import { useAuthToken } from '../../../stores/auth-token'
import { AnalyticsPage } from './analytics-page'

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  server.resetHandlers()
  useAuthToken.setState({ token: null })
})
afterAll(() => server.close())

function signInAs(role: string) {
  localStorage.setItem(AUTH_TOKEN_KEY, 'test-token')
  useAuthToken.setState({ token: 'test-token' })
  server.use(
    http.get('/api/auth/me', () =>
      HttpResponse.json({ user: { id: 1, email: 'a@example.com', username: null, role, createdAt: '2026-01-01T00:00:00.000Z', authenticated: true } }),
    ),
  )
}

function renderPage() {
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <MemoryRouter>
        <AnalyticsPage />
      </MemoryRouter>
    </SWRConfig>,
  )
  return userEvent.setup()
}

const emptyDashboard = (days: number) => ({
  days, totalVisitors: 0, totalPageViews: 0, totalEmails: 0, totalContacts: 0, topCountries: [], topPages: [],
  visitsPerDay: Array.from({ length: days }, (_, i) => ({ day: `2026-01-${String(i + 1).padStart(2, '0')}`, visitors: 0, pageViews: 0 })),
})
const realtime = { visitorsToday: 3, pageViewsToday: 9, emailsToday: 2, contactsToday: 1, activeUsers: 1 }

describe('AnalyticsPage', () => {
  it('asks a guest to sign in, without calling the analytics API', async () => {
    renderPage()
    expect(await screen.findByRole('heading', { name: 'Authentication Required' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to Home Page' })).toHaveAttribute('href', '/')
  }, 20_000)

  it('refuses a plain user and shows the role', async () => {
    signInAs('user')
    renderPage()
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument()
    expect(screen.getByText('Your role: user')).toBeInTheDocument()
    expect(screen.getByText('Only admins and owners can view analytics data')).toBeInTheDocument()
  })

  it('shows the empty texts, the default 30-day period, and switches period', async () => {
    signInAs('admin')
    const asked: string[] = []
    server.use(
      http.get('/api/analytics/realtime', () => HttpResponse.json(realtime)),
      http.get('/api/analytics/dashboard', ({ request }) => {
        const days = Number(new URL(request.url).searchParams.get('days'))
        asked.push(String(days))
        return HttpResponse.json(emptyDashboard(days))
      }),
      http.get('/api/analytics/contacts', () => HttpResponse.json({ contacts: [], total: 0 })),
    )
    const user = renderPage()
    expect(await screen.findByText('No country data available')).toBeInTheDocument()
    expect(screen.getByText('No page data available')).toBeInTheDocument()
    expect(await screen.findByText('No contact messages yet')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'true')
    expect(await screen.findByText('9')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Last 7 days' }))
    expect(await screen.findByRole('heading', { name: 'Overview (last 7 days)' })).toBeInTheDocument()
    expect(asked).toEqual(['30', '7'])
    expect(screen.getByRole('img', { name: /Bar chart of visitors per day/ })).toBeInTheDocument()
  })

  it('lists contacts with badges, offers the buttons only on new ones, and refetches after a change', async () => {
    signInAs('owner')
    const contacts: ContactMessage[] = [
      { id: 1, name: 'Ann', email: 'ann@example.com', subject: 'First', message: 'Hello there', status: 'new', submittedAt: '2026-01-02T10:00:00.000Z' },
      { id: 2, name: 'Bob', email: 'bob@example.com', subject: 'Second', message: 'Hi', status: 'replied', submittedAt: '2026-01-01T10:00:00.000Z' },
      { id: 3, name: 'Cy', email: 'cy@example.com', subject: 'Third', message: 'Yo', status: 'archived', submittedAt: '2026-01-01T09:00:00.000Z' },
    ]
    let patched: unknown = null
    server.use(
      http.get('/api/analytics/realtime', () => HttpResponse.json(realtime)),
      http.get('/api/analytics/dashboard', () =>
        HttpResponse.json({ ...emptyDashboard(30), topCountries: [{ country: 'Unknown', count: 2 }, { country: 'Germany', count: 1 }], topPages: [{ page: '/', count: 5 }] }),
      ),
      http.get('/api/analytics/contacts', () => HttpResponse.json({ contacts, total: contacts.length })),
      http.patch('/api/analytics/contacts/1/status', async ({ request }) => {
        patched = await request.json()
        contacts[0] = { ...contacts[0]!, status: 'read' }
        return HttpResponse.json({ success: true, contact: contacts[0] })
      }),
    )
    const user = renderPage()
    const cards = await screen.findAllByTestId('contact-card')
    expect(cards.map((c) => within(c).getByTestId('contact-status').textContent)).toEqual(['New', 'Replied', 'Unknown'])
    expect(within(cards[1]!).queryByRole('button', { name: 'Mark as Read' })).toBeNull()
    expect(screen.getByText('Germany')).toBeInTheDocument()
    expect(screen.getAllByText('Unknown').length).toBeGreaterThan(1)

    await user.click(within(cards[0]!).getByRole('button', { name: 'Mark as Read' }))
    await waitFor(() => expect(within(screen.getAllByTestId('contact-card')[0]!).getByTestId('contact-status')).toHaveTextContent('Read'))
    expect(patched).toEqual({ status: 'read' })
    expect(within(screen.getAllByTestId('contact-card')[0]!).queryByRole('button', { name: 'Mark as Replied' })).toBeNull()
  })
})
