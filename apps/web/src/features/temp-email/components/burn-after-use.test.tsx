import '../../../lib/i18n'
import { cleanup, render, screen, within } from '@testing-library/react'
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
    expect(within(burned).getByTestId('burned-code').textContent).toBe('482913')
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
})
