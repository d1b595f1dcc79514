import '../../../lib/i18n'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { SWRConfig } from 'swr'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { swrConfig } from '../../../lib/swr'
import { useCurrentAddress } from '../../../stores/current-address'
import { inboxMessage, inboxPage } from '../../../testing/mocks/email-data'
import { emailState, TEST_ADDRESS } from '../../../testing/mocks/email-handlers'
import { server } from '../../../testing/mocks/server'
import { TempEmailTool } from './temp-email-tool'

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(() => {
  emailState.reset()
  useCurrentAddress.setState({ email: null, expiresAt: null })
})
afterEach(() => {
  cleanup()
  server.resetHandlers()
  vi.unstubAllGlobals()
})
afterAll(() => server.close())

/** What the server's search answers, for the words of these tests: subject substring, paged like the inbox. */
function searchHandler() {
  return http.get('/api/email/:address', ({ request }) => {
    emailState.inboxRequests.push(request.clone())
    const url = new URL(request.url)
    const q = url.searchParams.get('q')
    if (q === 'is:unread') {
      return HttpResponse.json(
        { error: '"is:unread" is not supported: Tempbox does not keep track of which messages were read.', code: 'unsupported_query' },
        { status: 400 },
      )
    }
    // A search the server cut at its time budget: nothing found in the newest part, the rest from its cursor.
    if (q === 'ærø') {
      const before = url.searchParams.get('before')
      if (before === null) return HttpResponse.json({ messages: [], total: 0, unread: 0, nextBefore: '40', searchCut: true })
      return HttpResponse.json({ messages: [inboxMessage({ id: '3', subject: 'Ærø ferry' })], total: 1, unread: 0, nextBefore: null, searchCut: false })
    }
    const all = q === null ? emailState.messages : emailState.messages.filter((m) => m.subject.toLowerCase().includes(q.toLowerCase()))
    return HttpResponse.json(inboxPage(all, 50, url.searchParams.get('before')))
  })
}

/** The tool on the test address, its server answering searches; the event stream stays silent. */
function renderWithSearch() {
  vi.stubGlobal('EventSource', class extends EventTarget { close() {} })
  server.use(searchHandler())
  useCurrentAddress.getState().setAddress(TEST_ADDRESS, Date.now() + 24 * 3600_000)
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <TempEmailTool />
    </SWRConfig>,
  )
  return userEvent.setup()
}

const moreButton = (name: string) => within(screen.getByTestId('inbox-more')).getByRole('button', { name })

describe('inbox search', { timeout: 30_000 }, () => {
  it('searches as you type (debounced), pages with Load older, says when nothing matches, and clears', async () => {
    emailState.messages = Array.from({ length: 70 }, (_, i) =>
      inboxMessage({ id: String(i + 1), subject: i < 60 ? `Invoice ${i + 1}` : `Welcome ${i + 1}` }),
    )
    const user = renderWithSearch()
    await screen.findByText('Welcome 70')
    const box = screen.getByRole('searchbox', { name: 'Search messages' })

    await user.type(box, 'invoice')
    // Bounds a hang only: the debounce and 50 rows rendered by jsdom overran the default 1 s on the loaded machine.
    await screen.findByText('Showing 50 of 60', {}, { timeout: 10_000 })
    expect(screen.queryByText('Welcome 70')).not.toBeInTheDocument()
    // Debounced: the whole word went out once, not one request per letter.
    const searches = emailState.inboxRequests.map((r) => new URL(r.url).searchParams.get('q')).filter((q) => q !== null)
    expect(searches).toEqual(['invoice'])

    await user.click(moreButton('Load older messages'))
    await screen.findByText('Invoice 1')
    expect(screen.getByText('Showing 60 of 60')).toBeInTheDocument()
    const older = new URL(emailState.inboxRequests.at(-1)!.url)
    expect(older.searchParams.get('q')).toBe('invoice')
    expect(older.searchParams.get('before')).toBe('11')

    await user.clear(box)
    await user.type(box, 'receipt')
    expect(await screen.findByText('No messages match your search.')).toBeInTheDocument()
    expect(screen.queryAllByTestId('inbox-message')).toHaveLength(0)
    // While filtering, the heading counts the inbox and names the matches apart, not "Inbox (0)" beside its unread; heard
    // as seen, each count its own word.
    expect(screen.getByRole('heading', { level: 3, name: /^Inbox/ })).toHaveAccessibleName('Inbox (70) Matches: 0 Unread: 70')

    await user.click(screen.getByRole('button', { name: 'Clear search' }))
    await screen.findByText('Welcome 70')
    expect(box).toHaveValue('')
    expect(screen.getByText('Showing 50 of 70')).toBeInTheDocument()
  })

  it('says when the server stopped a search early and goes on from where it stopped', async () => {
    emailState.messages = [inboxMessage({ id: '50', subject: 'Hello' })]
    const user = renderWithSearch()
    await screen.findByText('Hello')
    await user.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'ærø')
    expect(await screen.findByText('The search stopped before reaching the oldest mail. Load more to keep looking.')).toBeInTheDocument()

    await user.click(moreButton('Load older messages'))
    await screen.findByText('Ærø ferry')
    expect(new URL(emailState.inboxRequests.at(-1)!.url).searchParams.get('before')).toBe('40')
    expect(screen.queryByText(/The search stopped/)).not.toBeInTheDocument()
  })

  it("shows the server's sentence for a query it cannot answer", async () => {
    emailState.messages = [inboxMessage({ id: '1', subject: 'Hello' })]
    const user = renderWithSearch()
    await screen.findByText('Hello')
    await user.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'is:unread')
    expect(await screen.findByText(/does not keep track of which messages were read/)).toBeInTheDocument()
  })
})
