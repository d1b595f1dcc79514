import '../../../lib/i18n'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { DeliveryEntry } from '@tempbox/types'
import { http, HttpResponse } from 'msw'
import { SWRConfig } from 'swr'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { swrConfig } from '../../../lib/swr'
import { useCurrentAddress } from '../../../stores/current-address'
import { fullMessage, inboxMessage } from '../../../testing/mocks/email-data'
import { emailState, TEST_ADDRESS } from '../../../testing/mocks/email-handlers'
import { server } from '../../../testing/mocks/server'
import { TempEmailTool } from './temp-email-tool'

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(() => {
  emailState.reset()
  useCurrentAddress.setState({ email: null, expiresAt: null, addresses: [] })
  useCurrentAddress.getState().setAddress(TEST_ADDRESS, Date.now() + 24 * 3600_000)
})
afterEach(() => {
  cleanup()
  server.resetHandlers()
})
afterAll(() => server.close())

function entry(fields: Partial<DeliveryEntry>): DeliveryEntry {
  return {
    id: '1', at: '2026-11-28T09:00:00.000Z', result: 'accepted', replyCode: 250, enhancedStatus: '2.0.0', reason: 'accepted',
    reasonText: 'The message was accepted and stored.', size: 2048, tag: null, messageId: null, ...fields,
  }
}

function renderTool() {
  return render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <TempEmailTool />
    </SWRConfig>,
  )
}

describe('"Why didn\'t my mail arrive?"', { timeout: 30_000 }, () => {
  it('is closed until asked, then shows each attempt in words: result, reason, reply, tag, size, and a link to the stored message', async () => {
    const asked: string[] = []
    server.use(
      http.get('/api/email/:address/deliveries', ({ request }) => {
        asked.push(new URL(request.url).search)
        return HttpResponse.json({
          deliveries: [
            entry({ id: '3', result: 'refused', replyCode: 550, enhancedStatus: '5.7.1', reason: 'fault_reject', tag: 'reject', size: null }),
            entry({ id: '2', result: 'deferred', replyCode: 452, enhancedStatus: '4.2.2', reason: 'mailbox_full', size: 5000 }),
            entry({ id: '1', tag: 'signup', messageId: '7' }),
          ],
          nextBefore: null,
        })
      }),
    )
    emailState.messages = [inboxMessage({ id: '7', subject: 'Welcome to MyApp' })]
    emailState.details.set('7', fullMessage({ id: '7', subject: 'Welcome to MyApp', content: 'Glad you are here.' }))
    const user = userEvent.setup()
    renderTool()
    await screen.findByText('Welcome to MyApp')

    const toggle = screen.getByRole('button', { name: "Why didn't my mail arrive?" })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(asked).toEqual([])
    await user.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')

    const rows = await screen.findAllByTestId('delivery-entry')
    expect(asked).toEqual(['?limit=100'])
    expect(rows.map((row) => row.getAttribute('data-result'))).toEqual(['refused', 'deferred', 'accepted'])
    expect(within(rows[0]!).getByText('Refused')).toBeTruthy()
    expect(within(rows[0]!).getByText('550 5.7.1')).toBeTruthy()
    expect(within(rows[0]!).getByText('The +reject tag asked for this: the recipient is refused.')).toBeTruthy()
    expect(within(rows[0]!).getByText('Tag: +reject')).toBeTruthy()
    expect(within(rows[1]!).getByText('Deferred: the sender should retry')).toBeTruthy()
    expect(within(rows[1]!).getByText('This inbox is full: it holds as many messages or bytes as it may.')).toBeTruthy()
    expect(within(rows[1]!).getByText('Size: 4.9 KB')).toBeTruthy()
    expect(within(rows[2]!).getByText('Accepted')).toBeTruthy()
    expect(within(rows[2]!).getByText('Tag: +signup')).toBeTruthy()
    expect(within(rows[2]!).getByText('Size: 2 KB')).toBeTruthy()
    expect(within(rows[2]!).getByRole('time').getAttribute('datetime')).toBe('2026-11-28T09:00:00.000Z')

    await user.click(within(rows[2]!).getByRole('link', { name: 'Open the message' }))
    expect(await screen.findByText('Glad you are here.')).toBeTruthy()
  })

  it('says when nothing tried to deliver, and shows the English sentence of a reason it has no words for', async () => {
    let answer: DeliveryEntry[] = []
    server.use(http.get('/api/email/:address/deliveries', () => HttpResponse.json({ deliveries: answer, nextBefore: null })))
    const user = userEvent.setup()
    renderTool()
    await user.click(await screen.findByRole('button', { name: "Why didn't my mail arrive?" }))
    expect(
      await screen.findByText(
        "No mail server has tried to deliver to this address yet. If mail was sent, check the address for typos and look in the sender's outbox or error log.",
      ),
    ).toBeTruthy()

    answer = [entry({ result: 'deferred', replyCode: 421, enhancedStatus: '4.4.2', reason: 'timed_out', reasonText: 'The server answered 421 4.4.2 (timed_out).' })]
    await user.click(screen.getByRole('button', { name: 'Refresh' }))
    expect(await screen.findByText('The server answered 421 4.4.2 (timed_out).')).toBeTruthy()
    // An accepted message deleted since is said to be gone, not linked.
    answer = [entry({ messageId: null })]
    await user.click(screen.getByRole('button', { name: 'Refresh' }))
    expect(await screen.findByText('The message has since been deleted.')).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Open the message' })).toBeNull()
  })

  it('shows older attempts on request when the log is longer than a page', async () => {
    const asked: string[] = []
    server.use(
      http.get('/api/email/:address/deliveries', ({ request }) => {
        const search = new URL(request.url).search
        asked.push(search)
        return search.includes('before=')
          ? HttpResponse.json({ deliveries: [entry({ id: '1', tag: 'oldest' })], nextBefore: null })
          : HttpResponse.json({ deliveries: [entry({ id: '2', tag: 'newest' })], nextBefore: '2' })
      }),
    )
    const user = userEvent.setup()
    renderTool()
    await user.click(await screen.findByRole('button', { name: "Why didn't my mail arrive?" }))
    await screen.findByText('Tag: +newest')
    await user.click(screen.getByRole('button', { name: 'Show older attempts' }))
    await screen.findByText('Tag: +oldest')
    expect(screen.getAllByTestId('delivery-entry').map((row) => within(row).getByText(/^Tag:/).textContent)).toEqual(['Tag: +newest', 'Tag: +oldest'])
    expect(asked).toContain('?limit=100&before=2')
    expect(screen.queryByRole('button', { name: 'Show older attempts' })).toBeNull()
  })

  it('says so when the log cannot be loaded', async () => {
    server.use(http.get('/api/email/:address/deliveries', () => HttpResponse.json({ error: 'Too many requests.', code: 'rate_limited' }, { status: 429 })))
    const user = userEvent.setup()
    renderTool()
    await user.click(await screen.findByRole('button', { name: "Why didn't my mail arrive?" }))
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toBe('The delivery attempts could not be loaded. Try again.')
  })
})
