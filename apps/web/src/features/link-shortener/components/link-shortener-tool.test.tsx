import '../../../lib/i18n'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { dismissToast, Toaster } from '@tempbox/ui'
import type { ShortLink } from '@tempbox/types'
import { SWRConfig } from 'swr'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { swrConfig } from '../../../lib/swr'
import { server } from '../../../testing/mocks/server'
import { useLinkStore } from '../stores/link-store'
import { LinkShortenerTool } from './link-shortener-tool'

let created: (ShortLink & { secret: string })[] = []
let posts = 0
/** What the browser sent when asking for its links' clicks. */
let lookups: unknown[] = []

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(() => {
  created = []
  posts = 0
  lookups = []
  useLinkStore.setState({ links: [] })
  dismissToast()
  server.use(
    http.post('*/api/links', async ({ request }) => {
      posts++
      const { url } = (await request.json()) as { url: string }
      const code = `Ab${String(created.length).padStart(6, '0')}`
      const link = { code, original: url, shortened: `http://localhost/s/${code}`, clicks: 0, createdAt: new Date().toISOString(), secret: `secret-of-${code}` }
      created.unshift(link)
      return HttpResponse.json(link, { status: 201 })
    }),
    http.post('*/api/links/lookup', async ({ request }) => {
      const body = (await request.json()) as { links: { code: string; secret: string }[] }
      lookups.push(body)
      const known = new Map(body.links.map((l) => [l.code, l.secret]))
      // As the server does: only links whose secret matches are shown.
      const links = created.filter((l) => known.get(l.code) === l.secret).map(({ secret: _secret, ...l }) => ({ ...l, clicks: 7 }))
      return HttpResponse.json({ links })
    }),
  )
})
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

function renderTool() {
  const user = userEvent.setup()
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <LinkShortenerTool />
      <Toaster />
    </SWRConfig>,
  )
  return user
}

describe('LinkShortenerTool', () => {
  it('says what is wrong at the field, and in a toast, before calling the server (spec §5)', async () => {
    const user = renderTool()
    const input = screen.getByLabelText('Long URL')
    await user.click(screen.getByRole('button', { name: 'Shorten' }))
    await waitFor(() => expect(input).toHaveAccessibleDescription('Please enter a URL to shorten'))
    expect(input).toHaveAttribute('aria-invalid', 'true')
    await user.type(input, 'not a url')
    expect(input).not.toHaveAttribute('aria-invalid')
    await user.click(screen.getByRole('button', { name: 'Shorten' }))
    expect(await screen.findByText('Invalid URL')).toBeInTheDocument()
    await waitFor(() => expect(input).toHaveAccessibleDescription('Please enter a valid URL (include http:// or https://)'))
    expect(posts).toBe(0)
  })

  it('shortens a bare domain as its https:// address', async () => {
    const user = renderTool()
    await user.type(screen.getByLabelText('Long URL'), 'example.com/some/page{Enter}')
    const list = await screen.findByRole('list', { name: 'Your short links' })
    expect(within(list).getByText('https://example.com/some/page')).toBeInTheDocument()
    expect(created[0]?.original).toBe('https://example.com/some/page')
  })

  it('prepends each new link, clears the input and remembers the links', async () => {
    const user = renderTool()
    const input = screen.getByLabelText('Long URL')
    await user.type(input, 'https://example.com/one{Enter}')
    const list = await screen.findByRole('list', { name: 'Your short links' })
    expect(input).toHaveValue('')
    await user.type(input, 'https://example.com/two{Enter}')
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2))
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('https://example.com/two')
    expect(JSON.parse(localStorage.getItem('tempbox-short-links')!).state.links).toHaveLength(2)
    // Live click counts come from the server, asked for with each link's secret, which the browser keeps.
    await waitFor(() => expect(within(list).getAllByText('Clicks: 7')).toHaveLength(2))
    expect(lookups.at(-1)).toEqual({ links: created.map(({ code, secret }) => ({ code, secret })) })
    expect(JSON.parse(localStorage.getItem('tempbox-short-links')!).state.links.map((l: { secret: string }) => l.secret)).toEqual(created.map((l) => l.secret))
  })

  it('does not ask about links kept from before secrets, and keeps showing what it knew of them', async () => {
    useLinkStore.setState({
      links: [{ code: 'Old123', original: 'https://old.example', shortened: 'http://localhost/s/Old123', clicks: 4, createdAt: new Date().toISOString() }],
    })
    const user = renderTool()
    await user.type(screen.getByLabelText('Long URL'), 'https://example.com/new{Enter}')
    const list = await screen.findByRole('list', { name: 'Your short links' })
    await waitFor(() => expect(within(list).getByText('Clicks: 7')).toBeInTheDocument())
    expect(within(list).getByText('Clicks: 4')).toBeInTheDocument()
    for (const body of lookups) expect(JSON.stringify(body)).not.toContain('Old123')
  })

  it("shows the server's message when it refuses", async () => {
    server.use(http.post('*/api/links', () => HttpResponse.json({ error: 'Too many requests. Please wait a moment and try again.', code: 'rate_limited' }, { status: 429 })))
    const user = renderTool()
    await user.type(screen.getByLabelText('Long URL'), 'https://example.com{Enter}')
    const input = screen.getByLabelText('Long URL')
    await waitFor(() => expect(input).toHaveAccessibleDescription('Too many requests. Please wait a moment and try again.'))
    expect(input).toHaveValue('https://example.com')
  })
})
