import '../../../lib/i18n'
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { SWRConfig } from 'swr'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { swrConfig } from '../../../lib/swr'
import { useCurrentAddress } from '../../../stores/current-address'
import { inboxMessage } from '../../../testing/mocks/email-data'
import { emailState, TEST_ADDRESS } from '../../../testing/mocks/email-handlers'
import { server } from '../../../testing/mocks/server'
import { MAIL_ALERTS_KEY, useMailAlertPrefs } from '../lib/new-mail-alerts'
import { TempEmailTool } from './temp-email-tool'

/** Records what the page asks of the Notification API; the permission is what the test says the browser answers. */
class FakeNotification {
  static permission: NotificationPermission = 'default'
  static answer: NotificationPermission = 'granted'
  static requestPermission = vi.fn(async () => {
    FakeNotification.permission = FakeNotification.answer
    return FakeNotification.permission
  })
  static shown: FakeNotification[] = []
  onclick: (() => void) | null = null
  close = vi.fn()
  constructor(
    readonly title: string,
    readonly options: NotificationOptions,
  ) {
    FakeNotification.shown.push(this)
  }
}

let visibility: DocumentVisibilityState = 'visible'
function setBackground(hidden: boolean) {
  visibility = hidden ? 'hidden' : 'visible'
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'))
  })
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(() => {
  emailState.reset()
  localStorage.removeItem(MAIL_ALERTS_KEY)
  useMailAlertPrefs.setState({ desktop: false, sound: false })
  useCurrentAddress.setState({ email: TEST_ADDRESS, expiresAt: Date.now() + 3_600_000 })
  FakeNotification.permission = 'default'
  FakeNotification.answer = 'granted'
  FakeNotification.shown = []
  FakeNotification.requestPermission.mockClear()
  vi.stubGlobal('Notification', FakeNotification)
  visibility = 'visible'
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility)
  vi.spyOn(document, 'hasFocus').mockImplementation(() => visibility === 'visible')
  document.title = 'Tempbox'
})
afterEach(() => {
  cleanup()
  server.resetHandlers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})
afterAll(() => server.close())

function renderTool() {
  const user = userEvent.setup()
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <TempEmailTool />
    </SWRConfig>,
  )
  return user
}

const row = (subject: string) => screen.getByText(subject).closest('li')!

describe('read state in the inbox', () => {
  it('shows unread mail in bold with the count; opening a message marks it read on the server and in the list', async () => {
    emailState.messages = [inboxMessage({ id: '1', subject: 'Old news', read: true }), inboxMessage({ id: '2', subject: 'Your code' }), inboxMessage({ id: '3', subject: 'Welcome' })]
    const user = renderTool()
    expect(await screen.findByTestId('unread-count')).toHaveTextContent('Unread: 2')
    expect(row('Your code')).toHaveAttribute('data-unread', 'true')
    expect(within(row('Your code')).getByText('Unread:', { exact: false })).toBeInTheDocument()
    expect(row('Old news')).toHaveAttribute('data-unread', 'false')

    await user.click(within(row('Your code')).getAllByRole('button')[0]!)
    await waitFor(() => expect(emailState.markedRead).toEqual(['2']))
    expect(row('Your code')).toHaveAttribute('data-unread', 'false')
    expect(screen.getByTestId('unread-count')).toHaveTextContent('Unread: 1')
    // Opening an already read message asks nothing.
    await user.click(within(row('Old news')).getAllByRole('button')[0]!)
    expect(emailState.markedRead).toEqual(['2'])
  })

  it('puts the unread count in the tab title only while the tab is in the background', async () => {
    emailState.messages = [inboxMessage({ id: '1', subject: 'A' }), inboxMessage({ id: '2', subject: 'B' })]
    renderTool()
    await screen.findByTestId('unread-count')
    expect(document.title).toBe('Tempbox')
    setBackground(true)
    expect(document.title).toBe('(2) Tempbox')
    setBackground(false)
    expect(document.title).toBe('Tempbox')
  })
})

describe('new mail alerts', () => {
  it('never asks for notification permission on load; asks when turned on and remembers the choice', async () => {
    const user = renderTool()
    const desktop = await screen.findByRole('checkbox', { name: 'Desktop notifications' })
    expect(desktop).not.toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Play a sound' })).not.toBeChecked()
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled()

    await user.click(desktop)
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(desktop).toBeChecked())
    expect(JSON.parse(localStorage.getItem(MAIL_ALERTS_KEY)!).state).toMatchObject({ desktop: true, sound: false })
  })

  it('says so when the browser blocks notifications, and leaves them off', async () => {
    FakeNotification.answer = 'denied'
    const user = renderTool()
    const desktop = await screen.findByRole('checkbox', { name: 'Desktop notifications' })
    await user.click(desktop)
    expect(await screen.findByText(/Notifications are blocked for this site/)).toBeInTheDocument()
    expect(desktop).not.toBeChecked()
  })

  it('notifies new mail with sender and subject while in the background; a click opens the message', async () => {
    emailState.messages = [inboxMessage({ id: '1', subject: 'Already here' })]
    FakeNotification.permission = 'granted'
    useMailAlertPrefs.setState({ desktop: true })
    const user = renderTool()
    await screen.findByText('Already here')

    setBackground(true)
    emailState.messages = [
      ...emailState.messages,
      inboxMessage({ id: '2', subject: 'Your login code', sender: 'GitHub <noreply@github.com>', fromName: 'GitHub', fromAddress: 'noreply@github.com' }),
    ]
    await user.click(screen.getByRole('button', { name: 'Check Emails' }))
    await waitFor(() => expect(FakeNotification.shown).toHaveLength(1))
    const [shown] = FakeNotification.shown
    expect(shown!.title).toBe('New mail from GitHub')
    expect(shown!.options.body).toBe('Your login code')
    expect(document.title).toBe('(2) Tempbox')

    const focus = vi.spyOn(window, 'focus').mockImplementation(() => undefined)
    setBackground(false)
    act(() => shown!.onclick!())
    expect(focus).toHaveBeenCalled()
    expect(shown!.close).toHaveBeenCalled()
    await waitFor(() => expect(emailState.markedRead).toEqual(['2']))
    expect(within(row('Your login code')).getAllByRole('button')[0]).toHaveAttribute('aria-expanded', 'true')
  })

  it('does not notify while the reader is looking at the tab, nor for what was there on load', async () => {
    emailState.messages = [inboxMessage({ id: '1', subject: 'Already here' })]
    FakeNotification.permission = 'granted'
    useMailAlertPrefs.setState({ desktop: true })
    const user = renderTool()
    await screen.findByText('Already here')
    emailState.messages = [...emailState.messages, inboxMessage({ id: '2', subject: 'Seen arriving' })]
    await user.click(screen.getByRole('button', { name: 'Check Emails' }))
    await screen.findByText('Seen arriving')
    expect(FakeNotification.shown).toEqual([])
  })
})
