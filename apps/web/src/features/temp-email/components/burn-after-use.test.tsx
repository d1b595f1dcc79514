import '../../../lib/i18n'
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { SWRConfig } from 'swr'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { swrConfig } from '../../../lib/swr'
import { useCurrentAddress } from '../../../stores/current-address'
import { fullMessage, inboxMessage } from '../../../testing/mocks/email-data'
import { emailState, TEST_ADDRESS } from '../../../testing/mocks/email-handlers'
import { server } from '../../../testing/mocks/server'
import { useBurnModes } from '../lib/burn'
import { TempEmailTool } from './temp-email-tool'

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(() => {
  emailState.reset()
  useCurrentAddress.setState({ email: null, expiresAt: null, addresses: [] })
  useBurnModes.setState({ modes: {} })
})
afterEach(() => {
  cleanup()
  server.resetHandlers()
  vi.useRealTimers()
})
afterAll(() => server.close())

function renderTool() {
  return render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <TempEmailTool />
    </SWRConfig>,
  )
}

describe('addresses that burn after use', () => {
  it('asks for burn after read when generating, says what will happen, and after the first read shows the message it kept', async () => {
    const bodies: unknown[] = []
    server.use(
      http.post('/api/email/generate', async ({ request }) => {
        bodies.push(await request.json())
        return HttpResponse.json({ email: TEST_ADDRESS, expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(), burn: 'read' })
      }),
      http.patch('/api/email/:address/messages/:id', ({ params }) => HttpResponse.json({ id: String(params.id), read: true, unread: 0, burned: true })),
    )
    emailState.messages = [inboxMessage({ id: '7', subject: 'Your sign-in code' })]
    emailState.details.set('7', fullMessage({ id: '7', subject: 'Your sign-in code', content: 'Your code is 482913', verification: { codes: ['482913'], codeDetails: [], links: [] } }))
    const user = userEvent.setup()
    renderTool()

    await user.selectOptions(screen.getByLabelText('When should this address be deleted?'), 'After I read its first message')
    await user.click(screen.getByRole('button', { name: 'Generate Email' }))
    expect(await screen.findByText('This address and its mail will be deleted after you read its first message.')).toBeTruthy()
    expect(bodies).toEqual([{ burnAfterRead: true }])

    await user.click(await screen.findByText('Your sign-in code'))
    const burned = await screen.findByTestId('burned-notice')
    expect(within(burned).getByRole('alert').textContent).toBe(
      'You read its first message, so this address and its mail have been deleted. Mail sent to it now is refused.',
    )
    // The kept copy keeps its code one tap from the clipboard.
    expect(within(burned).getByRole('button', { name: /^Code 482913/ })).toBeTruthy()
    expect(screen.queryByLabelText('Your temporary address')).toBeNull()
    expect(useCurrentAddress.getState().addresses).toEqual([])
  })

  it('sets a timer from the inbox and says when the address will be deleted', async () => {
    // Only the date stands still (timers and promises run): the countdown reads exactly the time the server answered.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 24, 12) })
    const at = Date.now() + 10 * 60_000
    const bodies: unknown[] = []
    server.use(
      http.put('/api/email/:address/burn', async ({ request }) => {
        bodies.push(await request.json())
        return HttpResponse.json({ email: TEST_ADDRESS, expiresAt: new Date(at).toISOString(), burn: 'timer' })
      }),
    )
    useCurrentAddress.getState().setAddress(TEST_ADDRESS, Date.now() + 24 * 3600_000)
    const user = userEvent.setup()
    renderTool()

    const inboxChoice = screen.getAllByLabelText('When should this address be deleted?')[0]!
    await user.selectOptions(inboxChoice, 'In 10 minutes')
    await user.click(screen.getByRole('button', { name: 'Apply' }))
    const notice = await screen.findByTestId('burn-notice')
    expect(notice.textContent).toBe('This address and its mail will be deleted in 00:10:00.')
    expect(bodies).toEqual([{ burnAfterMinutes: 10 }])
    expect(useCurrentAddress.getState().expiresAt).toBe(at)
  })

  it('warns at Apply how many unread messages burning on read will delete, and applies only when told to', async () => {
    const bodies: unknown[] = []
    server.use(
      http.put('/api/email/:address/burn', async ({ request }) => {
        bodies.push(await request.json())
        return HttpResponse.json({ email: TEST_ADDRESS, expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(), burn: 'read' })
      }),
    )
    emailState.messages = [inboxMessage({ id: '1', subject: 'One' }), inboxMessage({ id: '2', subject: 'Two' }), inboxMessage({ id: '3', subject: 'Three', read: true })]
    useCurrentAddress.getState().setAddress(TEST_ADDRESS, Date.now() + 24 * 3600_000)
    const user = userEvent.setup()
    renderTool()
    await screen.findByText('Three')

    await user.selectOptions(screen.getByLabelText('When should this address be deleted?'), 'After I read its first message')
    await user.click(screen.getByRole('button', { name: 'Apply' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete everything after the first read?' })
    expect(dialog).toHaveTextContent('Unread messages in this inbox: 2. Opening any one message deletes the address and all its mail, these unread messages too.')
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(bodies).toEqual([])

    await user.click(screen.getByRole('button', { name: 'Apply' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Apply' }))
    expect(await screen.findByText('This address and its mail will be deleted after you read its first message.')).toBeTruthy()
    expect(bodies).toEqual([{ burnAfterRead: true }])
  })

  it('shows one deletion control once there is an address, and it shows what the address really does', async () => {
    server.use(
      http.put('/api/email/:address/expiry', () =>
        HttpResponse.json({ email: TEST_ADDRESS, expiresAt: new Date(Date.now() + 7 * 24 * 3600_000).toISOString(), burn: null }),
      ),
    )
    const user = userEvent.setup()
    renderTool()
    expect(screen.getAllByLabelText('When should this address be deleted?')).toHaveLength(1)
    await user.click(screen.getByRole('button', { name: 'Generate Email' }))
    await screen.findByLabelText('Your temporary address')
    const control = screen.getByLabelText<HTMLSelectElement>('When should this address be deleted?')
    expect(screen.getAllByLabelText('When should this address be deleted?')).toHaveLength(1)
    expect(control.selectedOptions[0]!.textContent).toBe('After 24 hours (usual)')

    // Kept a week (as "Keep it for 7 days" does for a signed-in owner): the control says so, not "After 24 hours".
    act(() => useCurrentAddress.getState().setAddress(TEST_ADDRESS, Date.now() + 7 * 24 * 3600_000))
    await waitFor(() => expect(control.selectedOptions[0]!.textContent).toMatch(/^Kept longer: until /))
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled()
  })

  it('keeps the burned message with its links clickable and its code one tap from the clipboard', async () => {
    server.use(http.patch('/api/email/:address/messages/:id', ({ params }) => HttpResponse.json({ id: String(params.id), read: true, unread: 0, burned: true })))
    useCurrentAddress.getState().setAddress(TEST_ADDRESS, Date.now() + 24 * 3600_000)
    useBurnModes.getState().setMode(TEST_ADDRESS, 'read')
    emailState.messages = [inboxMessage({ id: '7', subject: 'Confirm' })]
    emailState.details.set(
      '7',
      fullMessage({ id: '7', subject: 'Confirm', content: 'Code 482913, or open https://example.com/confirm?t=9', verification: { codes: ['482913'], codeDetails: [], links: [] } }),
    )
    const user = userEvent.setup()
    renderTool()
    await user.click(await screen.findByText('Confirm'))
    const burned = await screen.findByTestId('burned-notice')
    expect(within(burned).getByRole('link', { name: 'https://example.com/confirm?t=9' })).toHaveAttribute('href', 'https://example.com/confirm?t=9')
    await user.click(within(burned).getByRole('button', { name: 'Code 482913 (Copy)' }))
    expect(await navigator.clipboard.readText()).toBe('482913')
  })
})
