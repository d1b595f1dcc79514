import i18n, { applyLanguage } from '../../../lib/i18n'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { dismissToast, Toaster } from '@tempbox/ui'
import { SWRConfig } from 'swr'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { swrConfig } from '../../../lib/swr'
import { useCurrentAddress } from '../../../stores/current-address'
import { gate } from '../../../testing/gate'
import { fullMessage, inboxMessage, inboxPage } from '../../../testing/mocks/email-data'
import { emailState, TEST_ADDRESS } from '../../../testing/mocks/email-handlers'
import { server } from '../../../testing/mocks/server'
import { INBOX_POLL_MS } from '../api/inbox'
import { REOPEN_MS } from '../hooks/use-email-stream'
import { UNDO_DELETE_MS } from '../hooks/use-undoable-delete'
import { TempEmailTool } from './temp-email-tool'

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(() => {
  emailState.reset()
  useCurrentAddress.setState({ email: null, expiresAt: null })
  dismissToast()
})
afterEach(() => {
  server.resetHandlers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})
afterAll(() => server.close())

function renderTool(user = userEvent.setup()) {
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <TempEmailTool />
      <Toaster />
    </SWRConfig>,
  )
  return user
}

/** The open toast of the shared kit, once it shows `text`. */
async function expectToast(text: string, variant: 'default' | 'destructive' = 'default') {
  await waitFor(() => {
    const open = document.querySelector('[data-slot="toast"][data-state="open"]')
    expect(open).toHaveTextContent(text)
    expect(open).toHaveAttribute('data-variant', variant)
  })
}

/**
 * Under fake timers: lets promises, msw's answers and React's renders run without moving the clock until `check`
 * passes. Each round yields once to the real event loop; the count of rounds only bounds a hang.
 */
async function settle(check: () => void) {
  for (let round = 0; ; round++) {
    try {
      check()
      return
    } catch (error) {
      if (round >= 500) throw error
    }
    await act(() => vi.advanceTimersByTimeAsync(0))
  }
}

/**
 * The list row (a button) showing `subject`. Found by its text: role queries compute every accessible name, which under
 * jsdom is slow enough to matter when `settle` repeats them.
 */
function messageRow(subject: string): HTMLElement {
  const row = screen.getAllByText(subject).map((element) => element.closest('button')).find(Boolean)
  if (!row) throw new Error(`no message row shows ${subject}`)
  return row
}

/** For the fake-clock tests: jsdom renders on a loaded 2-core machine overran vitest's 5 s; this only bounds a hang. */
const FAKE_CLOCK_TEST = { timeout: 30_000 }

function withAddress() {
  useCurrentAddress.getState().setAddress(TEST_ADDRESS, Date.now() + 24 * 3600_000)
}

/** Replaces EventSource with one the test drives; returns the streams opened, in order. */
function stubEventSource() {
  const sources: { url: string; readyState: number; dispatchEvent: (e: Event) => boolean }[] = []
  class FakeEventSource extends EventTarget {
    static CLOSED = 2
    readyState = 1
    constructor(readonly url: string) {
      super()
      sources.push(this)
    }
    close() {
      this.readyState = 2
    }
  }
  vi.stubGlobal('EventSource', FakeEventSource)
  return sources
}

describe('generate', () => {
  it('shows Generating... while pending, then the address and an Email Generated toast', async () => {
    const held = gate()
    server.use(
      http.post('/api/email/generate', async () => {
        await held.wait
        return HttpResponse.json({ email: TEST_ADDRESS, expiresAt: new Date(Date.now() + 86_400_000).toISOString() })
      }),
    )
    const user = renderTool()
    await user.click(screen.getByRole('button', { name: 'Generate Email' }))
    expect(await screen.findByRole('button', { name: 'Generating...' })).toBeDisabled()
    held.open()
    await expectToast('Email Generated')
    expect(screen.getByLabelText('Your temporary address')).toHaveValue(TEST_ADDRESS)
    // Focus lands on the new address, not on <body>.
    await waitFor(() => expect(screen.getByLabelText('Your temporary address')).toHaveFocus())
    expect(screen.getByTestId('expiry')).toHaveTextContent(/Expires in 2[34]:\d\d:\d\d/)
    expect(useCurrentAddress.getState().email).toBe(TEST_ADDRESS)
    expect(JSON.parse(localStorage.getItem('tempbox-current-address')!).state.email).toBe(TEST_ADDRESS)
    expect(await screen.findByText(/No messages yet/)).toBeInTheDocument()
  })

  it('shows the spec text when generation fails', async () => {
    server.use(http.post('/api/email/generate', () => HttpResponse.json({ error: 'Database exploded', code: 'internal' }, { status: 500 })))
    const user = renderTool()
    await user.click(screen.getByRole('button', { name: 'Generate Email' }))
    await expectToast('Failed to generate temporary email. Please try again.', 'destructive')
    expect(screen.queryByLabelText('Your temporary address')).not.toBeInTheDocument()
  })

  it('offers to release an old address for the active-address limit only, not for the hourly limit', async () => {
    server.use(
      http.post('/api/email/generate', () =>
        HttpResponse.json({ error: 'You already have 5 active addresses. Release one or wait until one expires.', code: 'too_many_active_addresses' }, { status: 429 }),
      ),
    )
    const user = renderTool()
    await user.click(screen.getByRole('button', { name: 'Generate Email' }))
    expect(await screen.findByRole('button', { name: 'Release an old address' })).toBeInTheDocument()
    // It counts per network, and is said once: at the form, not again in a toast.
    expect(screen.getByRole('button', { name: 'Generate Email' })).toHaveAccessibleDescription(
      'Too many active addresses from your network: everyone on it shares the limit. Release one you no longer need, or wait until one expires. Release an old address',
    )
    expect(document.querySelector('[data-slot="toast"][data-state="open"]')).toBeNull()

    server.use(
      http.post('/api/email/generate', () =>
        HttpResponse.json({ error: 'Too many addresses this hour. Try again later.', code: 'rate_limited' }, { status: 429, headers: { 'Retry-After': '600' } }),
      ),
    )
    await user.click(screen.getByRole('button', { name: 'Generate Email' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Generate Email' })).toHaveAccessibleDescription('Too many addresses this hour. Try again later.'))
    expect(screen.queryByRole('button', { name: 'Release an old address' })).not.toBeInTheDocument()
  })

  it('sends a chosen name and domain, and shows the server refusal of a taken name', async () => {
    const bodies: unknown[] = []
    server.use(
      http.post('/api/email/generate', async ({ request }) => {
        bodies.push(await request.json())
        return HttpResponse.json({ error: 'That address is already taken.', code: 'address_taken' }, { status: 409 })
      }),
    )
    const user = renderTool()
    await user.click(screen.getByRole('button', { name: 'Choose your own name' }))
    await user.type(screen.getByLabelText('Name'), 'alice-k7')
    await user.selectOptions(await screen.findByLabelText('Domain'), 'mailbox.test')
    await user.click(screen.getByRole('button', { name: 'Generate Email' }))
    // Said once, at the field: no toast repeats it.
    expect(await screen.findByRole('alert')).toHaveTextContent('That address is already taken.')
    expect(document.querySelector('[data-slot="toast"][data-state="open"]')).toBeNull()
    expect(bodies).toEqual([{ localPart: 'alice-k7', domain: 'mailbox.test' }])
  })

  it('names the characters a chosen name may use, without asking the server', async () => {
    const bodies: unknown[] = []
    server.use(
      http.post('/api/email/generate', async ({ request }) => {
        bodies.push(await request.json())
        return HttpResponse.json({ email: 'x@mailbox.test', expiresAt: new Date(Date.now() + 3_600_000).toISOString() })
      }),
    )
    const user = renderTool()
    await user.click(screen.getByRole('button', { name: 'Choose your own name' }))
    await user.type(screen.getByLabelText('Name'), 'my name!')
    await user.click(screen.getByRole('button', { name: 'Generate Email' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Use only letters a–z, digits 0–9 and . _ - + (no dot at the start, at the end or twice in a row).')
    expect(bodies).toEqual([])
  })

  it('warns that a chosen name can be guessed, refuses one under 6 characters without asking the server, and adds random characters', async () => {
    const bodies: unknown[] = []
    server.use(
      http.post('/api/email/generate', async ({ request }) => {
        bodies.push(await request.json())
        return HttpResponse.json({ email: 'x@mailbox.test', expiresAt: new Date(Date.now() + 3_600_000).toISOString() })
      }),
    )
    const user = renderTool()
    await user.click(screen.getByRole('button', { name: 'Choose your own name' }))
    expect(screen.getByText(/Anyone who guesses a chosen name can read its mail/)).toBeInTheDocument()
    const name = screen.getByLabelText('Name')
    await user.type(name, 'bob')
    await user.click(screen.getByRole('button', { name: 'Generate Email' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Use at least 6 characters')
    expect(name).toHaveAttribute('aria-invalid', 'true')
    expect(bodies).toEqual([])

    await user.click(screen.getByRole('button', { name: 'Add random characters' }))
    expect((name as HTMLInputElement).value).toMatch(/^bob-[a-z2-9]{5}$/)
    expect(screen.queryByRole('alert')).toBeNull()
  })
})

describe('release', () => {
  it('asks in its own dialog, not window.confirm, and releases only when told to', async () => {
    const released: string[] = []
    server.use(
      http.delete('/api/email/:address', ({ params }) => {
        released.push(String(params.address))
        return new HttpResponse(null, { status: 204 })
      }),
    )
    const browserConfirm = vi.spyOn(window, 'confirm')
    withAddress()
    const user = renderTool()
    const kept = await screen.findByTestId('kept-addresses')
    // The name heard starts with the word seen.
    await user.click(within(kept).getByRole('button', { name: `Release ${TEST_ADDRESS}` }))
    const dialog = await screen.findByRole('dialog', { name: 'Release this address?' })
    expect(dialog).toHaveTextContent(`Release ${TEST_ADDRESS}? The address and all its mail are deleted now and cannot be brought back.`)
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(released).toEqual([])

    await user.click(within(kept).getByRole('button', { name: `Release ${TEST_ADDRESS}` }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Release' }))
    await expectToast('Address Released')
    expect(released).toEqual([TEST_ADDRESS])
    expect(browserConfirm).not.toHaveBeenCalled()
  })
})

describe('copy', () => {
  it('copies the address and says Copied', async () => {
    withAddress()
    const user = renderTool()
    await user.click(screen.getByRole('button', { name: 'Copy' }))
    await expectToast('Copied')
    expect(await navigator.clipboard.readText()).toBe(TEST_ADDRESS)
  })

  it('says Copy Failed when the clipboard refuses', async () => {
    withAddress()
    const user = renderTool()
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'))
    await user.click(screen.getByRole('button', { name: 'Copy' }))
    await expectToast('Copy Failed', 'destructive')
    await expectToast('Could not copy to clipboard', 'destructive')
  })
})

describe('check emails', () => {
  it('forces a refresh with no-cache headers and reports the messages found', async () => {
    withAddress()
    const user = renderTool()
    await screen.findByText(/No messages yet/)
    emailState.messages = [inboxMessage()]
    const held = gate()
    server.use(
      http.get('/api/email/:address', async ({ request }) => {
        emailState.inboxRequests.push(request.clone())
        await held.wait
        return HttpResponse.json(inboxPage(emailState.messages))
      }),
    )
    await user.click(screen.getByRole('button', { name: 'Check Emails' }))
    expect(await screen.findByRole('button', { name: 'Checking...' })).toBeDisabled()
    held.open()
    await expectToast('Inbox Refreshed')
    await expectToast('Found 1 message(s).')
    expect(screen.getByText('Alice Example')).toBeInTheDocument()
    const forced = emailState.inboxRequests.at(-1)!
    const url = new URL(forced.url)
    expect(url.pathname).toBe(`/api/email/${encodeURIComponent(TEST_ADDRESS)}`)
    expect(url.searchParams.get('refresh')).toBe('true')
    expect(Number(url.searchParams.get('t'))).toBeGreaterThan(0)
    expect(forced.headers.get('cache-control')).toBe('no-cache')
    expect(forced.headers.get('pragma')).toBe('no-cache')
  })

  it('says no new messages on an empty inbox', async () => {
    withAddress()
    const user = renderTool()
    await user.click(screen.getByRole('button', { name: 'Check Emails' }))
    await expectToast('No new messages.')
  })

  it('shows the spec text when the refresh fails', async () => {
    withAddress()
    const user = renderTool()
    await screen.findByText(/No messages yet/)
    server.use(http.get('/api/email/:address', () => HttpResponse.json({ error: 'boom', code: 'internal' }, { status: 500 })))
    await user.click(screen.getByRole('button', { name: 'Check Emails' }))
    await expectToast('Failed to refresh inbox. Please try again.', 'destructive')
  })
})

describe('inbox', () => {
  it('lists sender, relative time and a 100-character preview', async () => {
    withAddress()
    emailState.messages = [inboxMessage({ preview: 'a'.repeat(100), receivedAt: new Date(Date.now() - 5 * 60_000).toISOString() })]
    renderTool()
    const row = await screen.findByTestId('inbox-message')
    expect(row).toHaveTextContent('Alice Example')
    expect(row).toHaveTextContent('5m ago')
    expect(row).toHaveTextContent(`${'a'.repeat(100)}…`)
    expect(row).not.toHaveTextContent('a'.repeat(101))
  })

  it('expands one message at a time; clicking again or Close collapses it', async () => {
    withAddress()
    emailState.messages = [inboxMessage({ id: '1', subject: 'First' }), inboxMessage({ id: '2', subject: 'Second' })]
    emailState.details.set('1', fullMessage({ id: '1', subject: 'First', content: 'Body of the first' }))
    emailState.details.set('2', fullMessage({ id: '2', subject: 'Second', content: 'Body of the second' }))
    const user = renderTool()
    const first = await screen.findByRole('button', { name: /First/ })
    const second = screen.getByRole('button', { name: /Second/ })

    await user.click(first)
    expect(first).toHaveAttribute('aria-expanded', 'true')
    expect(await screen.findByText('Body of the first')).toBeInTheDocument()

    await user.click(second)
    expect(await screen.findByText('Body of the second')).toBeInTheDocument()
    expect(screen.queryByText('Body of the first')).not.toBeInTheDocument()
    expect(first).toHaveAttribute('aria-expanded', 'false')

    await user.click(second)
    expect(screen.queryByText('Body of the second')).not.toBeInTheDocument()

    await user.click(first)
    await screen.findByText('Body of the first')
    await user.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByText('Body of the first')).not.toBeInTheDocument()
    expect(first).toHaveAttribute('aria-expanded', 'false')
  })

  it('refetches the inbox every 10 s while there is an address', FAKE_CLOCK_TEST, async () => {
    // Only the test moves the clock: the poll is due exactly INBOX_POLL_MS after the first load, not a moment before.
    vi.useFakeTimers()
    try {
      withAddress()
      renderTool()
      await settle(() => expect(emailState.inboxRequests).toHaveLength(1))
      emailState.messages = [inboxMessage({ subject: 'Arrived later' })]
      await act(() => vi.advanceTimersByTimeAsync(INBOX_POLL_MS - 1))
      expect(emailState.inboxRequests).toHaveLength(1)
      await act(() => vi.advanceTimersByTimeAsync(1))
      await settle(() => expect(screen.queryByText('Arrived later')).not.toBeNull())
      expect(emailState.inboxRequests).toHaveLength(2)
      // A plain poll: the page revalidates with its own ETag (inbox content is no-store), never a forced refresh.
      expect(emailState.inboxRequests[1]!.cache).toBe('no-store')
      expect(emailState.inboxRequests[1]!.headers.get('cache-control')).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })

  it('clears an expired address when the server answers 404', async () => {
    withAddress()
    server.use(http.get('/api/email/:address', () => HttpResponse.json({ error: 'This address does not exist or has expired.', code: 'inbox_not_found' }, { status: 404 })))
    renderTool()
    await expectToast('Address Expired', 'destructive')
    expect(screen.queryByLabelText('Your temporary address')).not.toBeInTheDocument()
    expect(screen.getByText(/This address has expired/, { selector: 'p[role="alert"]' })).toBeInTheDocument()
    expect(useCurrentAddress.getState().email).toBeNull()
  })

  it('shows a code and a verification link with one-click copy and open', async () => {
    withAddress()
    emailState.messages = [
      inboxMessage({
        verification: {
          codes: ['482913'],
          codeDetails: [{ code: '482913', source: 'Your code is 482913.', reason: 'labelled', label: 'code', position: 13 }],
          links: [{ url: 'https://example.com/verify?t=1', label: 'Verify your email' }],
        },
      }),
    ]
    const user = renderTool()
    const link = await screen.findByRole('link', { name: /Verify your email/ })
    expect(link).toHaveAttribute('href', 'https://example.com/verify?t=1')
    expect(link).toHaveAttribute('target', '_blank')
    expect(link).toHaveAttribute('rel', 'noopener noreferrer')
    // The chip's tooltip is the sentence the code came from.
    // Heard as seen, then what a tap does (axe's label-content-name-mismatch).
    expect(screen.getByRole('button', { name: 'Code 482913 (Copy)' })).toHaveAttribute('title', 'Your code is 482913.')
    await user.click(screen.getByRole('button', { name: 'Code 482913 (Copy)' }))
    await expectToast('Copied')
    expect(await navigator.clipboard.readText()).toBe('482913')
  })

  it('inserts a message pushed over Server-Sent Events', async () => {
    const sources = stubEventSource()
    withAddress()
    renderTool()
    await screen.findByText(/No messages yet/)
    expect(sources[0]!.url).toBe(`/api/email/${encodeURIComponent(TEST_ADDRESS)}/events`)
    const pushed = inboxMessage({ id: '9', subject: 'Pushed right now' })
    act(() => {
      sources[0]!.dispatchEvent(new MessageEvent('message', { data: JSON.stringify({ message: pushed }) }))
    })
    expect(await screen.findByText('Pushed right now')).toBeInTheDocument()

    act(() => {
      sources[0]!.dispatchEvent(new MessageEvent('deleted', { data: JSON.stringify({ id: '9' }) }))
    })
    await waitFor(() => expect(screen.queryByText('Pushed right now')).not.toBeInTheDocument())

    act(() => {
      sources[0]!.dispatchEvent(new MessageEvent('expired', { data: JSON.stringify({ address: TEST_ADDRESS }) }))
    })
    await expectToast('Address Expired', 'destructive')
    expect(sources[0]!.readyState).toBe(2)
    expect(useCurrentAddress.getState().email).toBeNull()
  })

  it('opens a new stream when the browser gave up on one, while polling carries on', FAKE_CLOCK_TEST, async () => {
    vi.useFakeTimers()
    const sources = stubEventSource()
    try {
      withAddress()
      renderTool()
      await settle(() => expect(screen.queryByText(/No messages yet/)).not.toBeNull())
      expect(sources).toHaveLength(1)
      act(() => {
        sources[0]!.readyState = 2
        sources[0]!.dispatchEvent(new Event('error'))
      })
      await act(() => vi.advanceTimersByTimeAsync(REOPEN_MS - 1))
      expect(sources).toHaveLength(1)
      await act(() => vi.advanceTimersByTimeAsync(1))
      expect(sources).toHaveLength(2)
      expect(sources[1]!.url).toBe(sources[0]!.url)
      // The poll kept its own schedule through the stream's failure: due INBOX_POLL_MS after the first load.
      emailState.messages = [inboxMessage({ subject: 'Found by the poll' })]
      await act(() => vi.advanceTimersByTimeAsync(INBOX_POLL_MS - REOPEN_MS - 1))
      expect(screen.queryByText('Found by the poll')).not.toBeInTheDocument()
      await act(() => vi.advanceTimersByTimeAsync(1))
      await settle(() => expect(screen.queryByText('Found by the poll')).not.toBeNull())
    } finally {
      vi.useRealTimers()
    }
  })

  it('deletes a message with Undo: gone from the list at once, deleted on the server only after the Undo time', FAKE_CLOCK_TEST, async () => {
    vi.useFakeTimers()
    try {
      withAddress()
      emailState.messages = [inboxMessage({ id: '7', subject: 'Delete me' })]
      // fireEvent, not user-event: Testing Library's async wrapper waits on a timer that only a moving clock fires.
      renderTool()
      await settle(() => expect(screen.queryAllByText('Delete me')).not.toHaveLength(0))
      fireEvent.click(messageRow('Delete me'))
      await settle(() => expect(screen.queryByText('Delete', { selector: 'button' })).not.toBeNull())
      fireEvent.click(screen.getByText('Delete', { selector: 'button' }))
      await settle(() => {
        const open = document.querySelector('[data-slot="toast"][data-state="open"]')
        expect(open).toHaveTextContent('Message Deleted')
      })
      expect(screen.queryByText('Delete me')).not.toBeInTheDocument()
      fireEvent.click(screen.getByRole('button', { name: 'Undo' }))
      await settle(() => expect(screen.queryAllByText('Delete me')).not.toHaveLength(0))
      await act(() => vi.advanceTimersByTimeAsync(UNDO_DELETE_MS))
      expect(emailState.deleted).toEqual([])

      fireEvent.click(messageRow('Delete me'))
      await settle(() => expect(screen.queryByText('Delete', { selector: 'button' })).not.toBeNull())
      fireEvent.click(screen.getByText('Delete', { selector: 'button' }))
      await act(() => vi.advanceTimersByTimeAsync(UNDO_DELETE_MS - 1))
      expect(emailState.deleted).toEqual([])
      await act(() => vi.advanceTimersByTimeAsync(1))
      await settle(() => expect(emailState.deleted).toEqual(['7']))
      expect(screen.queryByText('Delete me')).not.toBeInTheDocument()
    } finally {
      vi.useRealTimers()
    }
  })
})

/** `n` messages with ids 1..n (subject `Message <id>`), oldest first. */
function manyMessages(n: number) {
  return Array.from({ length: n }, (_, i) => inboxMessage({ id: String(i + 1), subject: `Message ${i + 1}` }))
}

// Each test renders 50 to 120 rows: slow under jsdom on a shared machine.
/** The button below the list (queried there: role queries over a page of rows are slow under jsdom). */
function moreButton(name: string) {
  return within(screen.getByTestId('inbox-more')).getByRole('button', { name })
}

describe('large inboxes', { timeout: 30_000 }, () => {
  it('shows the newest page with the count, then older pages on demand until none are left', async () => {
    withAddress()
    emailState.messages = manyMessages(120)
    const user = renderTool()
    await screen.findByText('Message 120')
    expect(screen.getAllByTestId('inbox-message')).toHaveLength(50)
    expect(screen.getByText('Showing 50 of 120')).toBeInTheDocument()
    expect(screen.getByText('Inbox').parentElement).toHaveTextContent('Inbox (120)')
    expect(screen.queryByText('Message 70')).not.toBeInTheDocument()

    await user.click(moreButton('Load older messages'))
    await screen.findByText('Message 70')
    expect(screen.getAllByTestId('inbox-message')).toHaveLength(100)
    expect(screen.getByText('Showing 100 of 120')).toBeInTheDocument()
    const older = new URL(emailState.inboxRequests.at(-1)!.url)
    expect(older.searchParams.get('before')).toBe('71')

    await user.click(moreButton('Load older messages'))
    await screen.findByText('Message 1')
    const subjects = screen.getAllByTestId('inbox-message').map((row) => /Message \d+/.exec(row.textContent ?? '')?.[0])
    expect(subjects).toEqual(Array.from({ length: 120 }, (_, i) => `Message ${120 - i}`))
    expect(screen.getByText('Showing 120 of 120')).toBeInTheDocument()
    expect(within(screen.getByTestId('inbox-more')).queryByRole('button')).not.toBeInTheDocument()
  })

  it('shows no Load older button when the first page is the whole inbox', async () => {
    withAddress()
    emailState.messages = manyMessages(3)
    renderTool()
    await screen.findByText('Message 3')
    expect(screen.getByText('Showing 3 of 3')).toBeInTheDocument()
    expect(within(screen.getByTestId('inbox-more')).queryByRole('button')).not.toBeInTheDocument()
  })

  it('says Loading older messages... while the page is on its way, and tells when it fails', async () => {
    const held = gate()
    withAddress()
    emailState.messages = manyMessages(60)
    const user = renderTool()
    await screen.findByText('Message 60')
    server.use(
      http.get('/api/email/:address', async ({ request }) => {
        if (!new URL(request.url).searchParams.has('before')) return HttpResponse.json(inboxPage(emailState.messages))
        await held.wait
        return HttpResponse.json({ error: 'boom', code: 'internal' }, { status: 500 })
      }),
    )
    await user.click(moreButton('Load older messages'))
    expect(await waitFor(() => moreButton('Loading older messages...'))).toBeDisabled()
    held.open()
    await expectToast('Could not load older messages. Please try again.', 'destructive')
    expect(moreButton('Load older messages')).toBeEnabled()
    expect(screen.getAllByTestId('inbox-message')).toHaveLength(50)
  })

  it('keeps older messages in view when pushed mail moves them off the first page, and counts new and deleted mail', async () => {
    const sources = stubEventSource()
    withAddress()
    emailState.messages = manyMessages(60)
    const user = renderTool()
    await screen.findByText('Message 60')
    await user.click(moreButton('Load older messages'))
    await screen.findByText('Message 1')

    const pushed = inboxMessage({ id: '61', subject: 'Message 61' })
    emailState.messages = [...emailState.messages, pushed]
    act(() => {
      sources[0]!.dispatchEvent(new MessageEvent('message', { data: JSON.stringify({ message: pushed }) }))
    })
    await screen.findByText('Message 61')
    expect(screen.getByText('Showing 61 of 61')).toBeInTheDocument()

    // A fresh first page no longer holds message 11; it stays where it was.
    await user.click(screen.getByText('Check Emails'))
    await expectToast('Found 61 message(s).')
    expect(new URL(emailState.inboxRequests.at(-1)!.url).searchParams.get('before')).toBeNull()
    expect(screen.getByText('Message 11')).toBeInTheDocument()
    expect(screen.getAllByTestId('inbox-message')).toHaveLength(61)

    // Deleting an older message (here: by another tab, announced on the stream) removes it and counts it.
    emailState.messages = emailState.messages.filter((m) => m.id !== '5')
    act(() => {
      sources[0]!.dispatchEvent(new MessageEvent('deleted', { data: JSON.stringify({ id: '5' }) }))
    })
    await waitFor(() => expect(screen.queryByText('Message 5')).not.toBeInTheDocument())
    expect(screen.getByText('Showing 60 of 60')).toBeInTheDocument()
  })
})

describe('message viewer', () => {
  it('renders HTML in a script-less sandbox, blocks remote images until Show images, lists attachments', async () => {
    withAddress()
    emailState.messages = [inboxMessage({ id: '3', subject: 'Receipt', hasHtml: true, attachmentCount: 1 })]
    emailState.details.set(
      '3',
      fullMessage({
        id: '3',
        subject: 'Receipt',
        content: 'Plain receipt',
        html: '<p>Thanks</p><img data-remote-src="https://tracker.example/pixel.gif" alt="">',
        hasRemoteContent: true,
        attachments: [{ index: 0, filename: 'receipt.pdf', contentType: 'application/pdf', size: 2048, contentId: null, inline: false }],
      }),
    )
    const user = renderTool()
    await user.click(await screen.findByRole('button', { name: /Receipt/ }))
    const frame = await screen.findByTitle('Message content')
    // Never allow-scripts: nothing in a mail runs. Same origin only lets the page measure the frame to fit it.
    expect(frame).toHaveAttribute('sandbox', 'allow-same-origin allow-popups allow-popups-to-escape-sandbox')
    // The mail is a document of its own, served under its own policy: not a srcdoc inheriting the app's.
    const frameUrl = `/api/email/${encodeURIComponent(TEST_ADDRESS)}/messages/3/frame`
    expect(frame).not.toHaveAttribute('srcdoc')
    expect(frame).toHaveAttribute('src', frameUrl)

    await user.click(screen.getByRole('button', { name: 'Show images' }))
    expect(screen.getByTitle('Message content')).toHaveAttribute('src', `${frameUrl}?images=true`)
    expect(screen.queryByRole('button', { name: 'Show images' })).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Text' }))
    expect(screen.getByText('Plain receipt')).toBeInTheDocument()
    expect(screen.queryByTitle('Message content')).not.toBeInTheDocument()

    const download = screen.getByRole('link', { name: 'Download receipt.pdf' })
    expect(download).toHaveAttribute('href', `/api/email/${encodeURIComponent(TEST_ADDRESS)}/messages/3/attachments/0`)
    expect(within(download.closest('li')!).getByText('PDF document, 2 KB')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download .eml' })).toHaveAttribute('href', `/api/email/${encodeURIComponent(TEST_ADDRESS)}/messages/3/raw`)

    await user.click(screen.getByRole('button', { name: 'Headers' }))
    expect(screen.getByText('Subject:')).toBeInTheDocument()
  })

  it('shows the text and a note to download the .eml when the HTML is withheld', async () => {
    withAddress()
    emailState.messages = [inboxMessage({ id: '4', subject: 'Huge newsletter', hasHtml: true })]
    emailState.details.set('4', fullMessage({ id: '4', subject: 'Huge newsletter', hasTextPart: false, content: 'Rendered text of the newsletter', html: null, htmlWithheld: 'too_large' }))
    const user = renderTool()
    await user.click(await screen.findByRole('button', { name: /Huge newsletter/ }))
    expect(await screen.findByRole('note')).toHaveTextContent("This message's HTML is too large to display; download the .eml to see it as sent.")
    expect(screen.getByText('Rendered text of the newsletter')).toBeInTheDocument()
    expect(screen.queryByTitle('Message content')).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download .eml' })).toHaveAttribute('href', `/api/email/${encodeURIComponent(TEST_ADDRESS)}/messages/4/raw`)
  })
})

describe('languages', () => {
  it('shows the tool in the chosen language, right to left where it applies', async () => {
    try {
      await applyLanguage('de')
      const user = renderTool()
      expect(screen.getByRole('heading', { name: 'Temporäre E-Mail' })).toBeInTheDocument()
      await user.click(screen.getByRole('button', { name: 'E-Mail erstellen' }))
      await expectToast('E-Mail erstellt')
      cleanup()
      await applyLanguage('ar')
      renderTool()
      expect(screen.getByRole('button', { name: 'فحص البريد' })).toBeInTheDocument()
      expect(document.documentElement.dir).toBe('rtl')
    } finally {
      await applyLanguage('en')
    }
    expect(i18n.language).toBe('en')
  })
})

