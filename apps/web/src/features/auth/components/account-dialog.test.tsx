import '../../../lib/i18n'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { dismissToast, Toaster } from '@tempbox/ui'
import { http, HttpResponse } from 'msw'
import { MemoryRouter } from 'react-router'
import { SWRConfig } from 'swr'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { AUTH_TOKEN_KEY } from '../../../lib/api-client'
import { swrConfig } from '../../../lib/swr'
import { useCurrentAddress } from '../../../stores/current-address'
import { gate } from '../../../testing/gate'
import { server } from '../../../testing/mocks/server'
import { useAuthToken } from '../../../stores/auth-token'
import { AccountDialog } from './account-dialog'

const user1 = { id: 1, email: 'ann@example.com', username: null, role: 'user', createdAt: '2026-01-01T00:00:00.000Z', authenticated: true }

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(() => {
  dismissToast()
  useAuthToken.setState({ token: null })
  useCurrentAddress.setState({ email: null, expiresAt: null })
})
afterEach(() => {
  server.resetHandlers()
  vi.restoreAllMocks()
})
afterAll(() => server.close())

function renderDialog() {
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <MemoryRouter>
        <AccountDialog />
      </MemoryRouter>
      <Toaster />
    </SWRConfig>,
  )
  return userEvent.setup()
}

async function expectToast(text: string, variant: 'default' | 'destructive' = 'default') {
  await waitFor(() => {
    const open = document.querySelector('[data-slot="toast"][data-state="open"]')
    expect(open).toHaveTextContent(text)
    expect(open).toHaveAttribute('data-variant', variant)
  })
}

/** Paste rather than type: per-key typing is slow on a loaded CI machine and tests nothing more here. */
async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field)
  await user.paste(text)
}

function signedIn() {
  localStorage.setItem(AUTH_TOKEN_KEY, 'tok')
  useAuthToken.setState({ token: 'tok' })
  server.use(
    http.get('/api/auth/me', () => HttpResponse.json({ user: user1 })),
    http.post('/api/auth/sign-out', () => HttpResponse.json({ success: true, message: 'You have been signed out.' })),
  )
}

describe('AccountDialog', () => {
  it('registers: Creating... while pending, then the token is stored, the dialog closes and a toast says Account Created', async () => {
    let sent: unknown
    const held = gate()
    server.use(
      http.post('/api/auth/register', async ({ request }) => {
        sent = await request.json()
        await held.wait
        return HttpResponse.json({ token: 'new-token', user: user1 })
      }),
      http.get('/api/auth/addresses', () => HttpResponse.json({ addresses: [] })),
    )
    const user = renderDialog()
    await user.click(screen.getByRole('button', { name: 'Sign In' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true')
    await user.click(within(dialog).getByRole('tab', { name: 'Create Account' }))
    await fill(user, within(dialog).getByLabelText('Email'), 'ann@example.com')
    await fill(user, within(dialog).getByLabelText('Password'), 'secret1')
    await user.click(within(dialog).getByRole('button', { name: 'Create Account' }))
    expect(await within(dialog).findByRole('button', { name: 'Creating...' })).toBeDisabled()
    held.open()
    await expectToast('Account Created')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('new-token')
    expect(sent).toEqual({ email: 'ann@example.com', password: 'secret1' })
    expect(screen.getByRole('button', { name: 'Account' })).toHaveTextContent('ann@example.com')
  }, 20_000)

  it('shows Login Failed with the server message', async () => {
    server.use(http.post('/api/auth/login', () => HttpResponse.json({ error: 'Invalid email or password', code: 'invalid_credentials' }, { status: 401 })))
    const user = renderDialog()
    await user.click(screen.getByRole('button', { name: 'Sign In' }))
    const dialog = await screen.findByRole('dialog')
    await fill(user, within(dialog).getByLabelText('Email'), 'ann@example.com')
    await fill(user, within(dialog).getByLabelText('Password'), 'nope')
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }))
    await expectToast('Login FailedInvalid email or password', 'destructive')
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull()
    // The error stays at the fields after the toast has gone, and both fields are described by it.
    for (const label of ['Email', 'Password']) {
      const field = within(dialog).getByLabelText(label)
      expect(field).toHaveAttribute('aria-invalid', 'true')
      expect(field).toHaveAccessibleDescription('Invalid email or password')
    }
    await fill(user, within(dialog).getByLabelText('Password'), 'nope2')
    expect(within(dialog).queryByRole('alert')).toBeNull()
  })

  it('shows a taken email at the email field when registering', async () => {
    server.use(
      http.post('/api/auth/register', () =>
        HttpResponse.json(
          { error: 'An account with this email already exists.', code: 'email_taken', fields: { email: 'An account with this email already exists.' } },
          { status: 409 },
        ),
      ),
    )
    const user = renderDialog()
    await user.click(screen.getByRole('button', { name: 'Sign In' }))
    const dialog = await screen.findByRole('dialog')
    await user.click(within(dialog).getByRole('tab', { name: 'Create Account' }))
    await fill(user, within(dialog).getByLabelText('Email'), 'ann@example.com')
    await fill(user, within(dialog).getByLabelText('Password'), 'secret1')
    await user.click(within(dialog).getByRole('button', { name: 'Create Account' }))
    const email = within(dialog).getByLabelText('Email')
    await waitFor(() => expect(email).toHaveAccessibleDescription('An account with this email already exists.'))
    expect(email).toHaveAttribute('aria-invalid', 'true')
    expect(within(dialog).getByLabelText('Password')).not.toHaveAttribute('aria-invalid')
    expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription('At least 6 characters.')
  })

  it('lists saved addresses and switches the current inbox to one', async () => {
    signedIn()
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString()
    server.use(http.get('/api/auth/addresses', () => HttpResponse.json({ addresses: [{ email: 'box1@tempbox.test', createdAt: expiresAt, expiresAt }] })))
    const user = renderDialog()
    await user.click(await screen.findByRole('button', { name: 'Account' }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByText('box1@tempbox.test', { selector: 'p' })).toBeInTheDocument()
    // Named for its address: several Open buttons are told apart by ear.
    await user.click(within(dialog).getByRole('button', { name: 'Open box1@tempbox.test' }))
    expect(useCurrentAddress.getState()).toMatchObject({ email: 'box1@tempbox.test', expiresAt: Date.parse(expiresAt) })
  })

  it('signing in on a second device puts the account’s addresses in the tool, the most recent one open', async () => {
    const soon = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString()
    const ago = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString()
    server.use(
      http.post('/api/auth/login', () => HttpResponse.json({ token: 'tok', user: user1 })),
      http.get('/api/auth/me', () => HttpResponse.json({ user: user1 })),
      http.get('/api/auth/addresses', () =>
        HttpResponse.json({
          addresses: [
            { email: 'older@tempbox.test', createdAt: ago(5), expiresAt: soon(19) },
            { email: 'newer@tempbox.test', createdAt: ago(1), expiresAt: soon(23) },
            { email: 'gone@tempbox.test', createdAt: ago(30), expiresAt: ago(6) },
          ],
        }),
      ),
    )
    useCurrentAddress.setState({ email: null, expiresAt: null, addresses: [] })
    const user = renderDialog()
    await user.click(screen.getByRole('button', { name: 'Sign In' }))
    const dialog = await screen.findByRole('dialog')
    await fill(user, within(dialog).getByLabelText('Email'), 'ann@example.com')
    await fill(user, within(dialog).getByLabelText('Password'), 'secret1')
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }))
    await waitFor(() => expect(useCurrentAddress.getState().email).toBe('newer@tempbox.test'))
    expect(useCurrentAddress.getState().addresses.map((a) => a.email)).toEqual(['newer@tempbox.test', 'older@tempbox.test'])
  })

  it('signing out forgets the account’s addresses on this device, and keeps the others', async () => {
    signedIn()
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString()
    server.use(
      http.get('/api/auth/addresses', () => HttpResponse.json({ addresses: [{ email: 'mine@tempbox.test', createdAt: expiresAt, expiresAt }] })),
    )
    useCurrentAddress.setState({ addresses: [] })
    useCurrentAddress.getState().setAddress('guest@tempbox.test', expiresAt)
    useCurrentAddress.getState().setAddress('mine@tempbox.test', expiresAt)
    const user = renderDialog()
    await user.click(await screen.findByRole('button', { name: 'Account' }))
    await user.click(await screen.findByRole('button', { name: 'Sign Out' }))
    await expectToast('Logged Out')
    expect(useCurrentAddress.getState()).toMatchObject({ email: null, expiresAt: null })
    expect(useCurrentAddress.getState().addresses.map((a) => a.email)).toEqual(['guest@tempbox.test'])
  })

  it('signs out: the server ends the session, token removed, Logged Out', async () => {
    signedIn()
    let ended = 0
    server.use(
      http.get('/api/auth/addresses', () => HttpResponse.json({ addresses: [] })),
      http.post('/api/auth/sign-out', () => {
        ended++
        return HttpResponse.json({ success: true })
      }),
    )
    const user = renderDialog()
    await user.click(await screen.findByRole('button', { name: 'Account' }))
    await user.click(await screen.findByRole('button', { name: 'Sign Out' }))
    await expectToast('Logged Out')
    expect(ended).toBe(1)
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull()
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument()
  })

  it('deletes only with the password and after our own confirmation, then says Account Deleted', async () => {
    signedIn()
    const sent: unknown[] = []
    server.use(
      http.get('/api/auth/addresses', () => HttpResponse.json({ addresses: [] })),
      http.delete('/api/auth/account', async ({ request }) => {
        const body = (await request.json()) as { password: string }
        sent.push(body)
        if (body.password !== 'secret-pass') {
          return HttpResponse.json({ error: 'The password is not correct: the account was not deleted.', code: 'wrong_password' }, { status: 403 })
        }
        return HttpResponse.json({ success: true })
      }),
      http.post('/api/auth/sign-out', () => HttpResponse.json({ success: true })),
    )
    const browserConfirm = vi.spyOn(window, 'confirm')
    const user = renderDialog()
    await user.click(await screen.findByRole('button', { name: 'Account' }))
    await user.click(await screen.findByRole('button', { name: 'Delete Account' }))
    expect(await screen.findByText('Enter your password to delete the account.')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Your password'), 'wrong-pass')
    await user.click(screen.getByRole('button', { name: 'Delete Account' }))
    // Our own dialog asks, not window.confirm.
    const ask = await screen.findByTestId('confirm-dialog')
    expect(ask).toHaveTextContent('Are you sure you want to delete your account? This action cannot be undone.')
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }))
    expect(sent).toEqual([])
    await user.click(screen.getByRole('button', { name: 'Delete Account' }))
    await user.click(within(await screen.findByTestId('confirm-dialog')).getByRole('button', { name: 'Delete Account' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('The password is not correct: the account was not deleted.')
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('tok')
    await user.clear(screen.getByLabelText('Your password'))
    await user.type(screen.getByLabelText('Your password'), 'secret-pass')
    await user.click(screen.getByRole('button', { name: 'Delete Account' }))
    await user.click(within(await screen.findByTestId('confirm-dialog')).getByRole('button', { name: 'Delete Account' }))
    await expectToast('Your account and all associated data has been deleted.')
    expect(browserConfirm).not.toHaveBeenCalled()
    expect(sent).toEqual([{ password: 'wrong-pass' }, { password: 'secret-pass' }])
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull()
  }, 20_000)

  it('changes the password: checks the fields first, shows a wrong current password, then stores the fresh token', async () => {
    signedIn()
    const sent: unknown[] = []
    server.use(
      http.get('/api/auth/addresses', () => HttpResponse.json({ addresses: [] })),
      http.post('/api/auth/password', async ({ request }) => {
        const body = (await request.json()) as { currentPassword: string }
        sent.push(body)
        if (body.currentPassword !== 'old-pass') {
          const text = 'The current password is not correct.'
          return HttpResponse.json({ error: text, code: 'wrong_password', fields: { currentPassword: text } }, { status: 403 })
        }
        return HttpResponse.json({ token: 'fresh-token', user: user1 })
      }),
    )
    const user = renderDialog()
    await user.click(await screen.findByRole('button', { name: 'Account' }))
    await user.click(await screen.findByRole('button', { name: 'Change Password' }))
    const current = screen.getByLabelText('Current password')
    const next = screen.getByLabelText('New password')
    await fill(user, current, 'old-pass')
    await fill(user, next, '12345')
    await user.click(screen.getByRole('button', { name: 'Save New Password' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('The new password must be at least 6 characters.')
    expect(sent).toEqual([])

    await user.clear(current)
    await fill(user, current, 'not-it')
    await user.clear(next)
    await fill(user, next, 'new-pass-1')
    await user.click(screen.getByRole('button', { name: 'Save New Password' }))
    await expectToast('The current password is not correct.', 'destructive')
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('tok')

    await user.clear(current)
    await fill(user, current, 'old-pass')
    await user.click(screen.getByRole('button', { name: 'Save New Password' }))
    await expectToast('Every other device has been signed out.')
    expect(sent.at(-1)).toEqual({ currentPassword: 'old-pass', newPassword: 'new-pass-1' })
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('fresh-token')
    expect(screen.queryByLabelText('Current password')).toBeNull()
  }, 20_000)

  it('signs out everywhere: the server revokes every token, this tab becomes a guest', async () => {
    signedIn()
    let calls = 0
    server.use(
      http.get('/api/auth/addresses', () => HttpResponse.json({ addresses: [] })),
      http.post('/api/auth/sign-out-everywhere', ({ request }) => {
        calls += request.headers.get('authorization') === 'Bearer tok' ? 1 : 0
        return HttpResponse.json({ success: true, message: 'You have been signed out on every device.' })
      }),
    )
    const user = renderDialog()
    await user.click(await screen.findByRole('button', { name: 'Account' }))
    await user.click(await screen.findByRole('button', { name: 'Sign Out Everywhere' }))
    await expectToast('You have been signed out on every device.')
    expect(calls).toBe(1)
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull()
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument()
  })
})
