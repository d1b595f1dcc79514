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

let created: ShortLink[] = []
let posts = 0

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(() => {
  created = []
  posts = 0
  useLinkStore.setState({ links: [] })
  dismissToast()
  server.use(
    http.post('*/api/links', async ({ request }) => {
      posts++
      const { url } = (await request.json()) as { url: string }
      const code = `Ab${String(created.length).padStart(4, '0')}`
      const link = { code, original: url, shortened: `http://localhost/s/${code}`, clicks: 0, createdAt: new Date().toISOString() }
      created.unshift(link)
      return HttpResponse.json(link, { status: 201 })
    }),
    http.get('*/api/links', () => HttpResponse.json({ links: created.map((l) => ({ ...l, clicks: 7 })) })),
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
  it('says what is wrong before calling the server (spec §5)', async () => {
    const user = renderTool()
    await user.click(screen.getByRole('button', { name: 'Shorten' }))
    expect(await screen.findByText('Please enter a URL to shorten')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Long URL'), 'example.com')
    await user.click(screen.getByRole('button', { name: 'Shorten' }))
    expect(await screen.findByText('Invalid URL')).toBeInTheDocument()
    expect(screen.getByText('Please enter a valid URL (include http:// or https://)')).toBeInTheDocument()
    expect(posts).toBe(0)
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
    // Live click counts come from the server.
    await waitFor(() => expect(within(list).getAllByText('Clicks: 7')).toHaveLength(2))
  })

  it("shows the server's message when it refuses", async () => {
    server.use(http.post('*/api/links', () => HttpResponse.json({ error: 'Too many requests. Please wait a moment and try again.', code: 'rate_limited' }, { status: 429 })))
    const user = renderTool()
    await user.type(screen.getByLabelText('Long URL'), 'https://example.com{Enter}')
    expect(await screen.findByText('Too many requests. Please wait a moment and try again.')).toBeInTheDocument()
    expect(screen.getByLabelText('Long URL')).toHaveValue('https://example.com')
  })
})
