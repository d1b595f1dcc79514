import '../../../lib/i18n'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { dismissToast, Toaster } from '@tempbox/ui'
import { http, HttpResponse } from 'msw'
import { MemoryRouter } from 'react-router'
import { SWRConfig } from 'swr'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { swrConfig } from '../../../lib/swr'
import { server } from '../../../testing/mocks/server'
import { AdminSetupPage } from './admin-setup-page'

const KEY = 'setup-key-123'
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(() => dismissToast())
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

function renderPage() {
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <MemoryRouter>
        <AdminSetupPage />
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

describe('AdminSetupPage', () => {
  it('says Please fill all fields without calling the server', async () => {
    let calls = 0
    server.use(
      http.get('/api/auth/setup', () => HttpResponse.json({ open: true, secretKey: KEY })),
      http.post('/api/auth/promote-owner', () => {
        calls++
        return HttpResponse.json({})
      }),
    )
    const user = renderPage()
    expect(await screen.findByText(KEY)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Promote to Owner' }))
    await expectToast('Please fill all fields', 'destructive')
    // At each empty field too, where it stays after the toast; typing in one leaves the other's.
    for (const label of ['Email', 'Secret key']) expect(screen.getByLabelText(label)).toHaveAccessibleDescription('Please fill all fields')
    await user.type(screen.getByLabelText('Email'), 'a')
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid')
    expect(screen.getByLabelText('Secret key')).toHaveAttribute('aria-invalid', 'true')
    expect(calls).toBe(0)
  }, 20_000)

  it("shows the server's refusal, and Could not connect to server on a network failure", async () => {
    server.use(
      http.get('/api/auth/setup', () => HttpResponse.json({ open: true, secretKey: KEY })),
      http.post('/api/auth/promote-owner', () => HttpResponse.json({ error: 'No account uses this email.', code: 'user_not_found' }, { status: 404 }), { once: true }),
      http.post('/api/auth/promote-owner', () => HttpResponse.error()),
    )
    const user = renderPage()
    await screen.findByText(KEY)
    await user.click(screen.getByLabelText('Email'))
    await user.paste('ghost@example.com')
    await user.click(screen.getByRole('button', { name: 'Auto-fill' }))
    expect(screen.getByLabelText('Secret key')).toHaveValue(KEY)
    await user.click(screen.getByRole('button', { name: 'Promote to Owner' }))
    await expectToast('No account uses this email.', 'destructive')
    expect(screen.getByRole('button', { name: 'Promote to Owner' })).toHaveAccessibleDescription('No account uses this email.')
    await user.click(screen.getByRole('button', { name: 'Promote to Owner' }))
    await expectToast('Could not connect to server', 'destructive')
    expect(screen.getByRole('button', { name: 'Promote to Owner' })).toHaveAccessibleDescription('Could not connect to server')
  }, 20_000)

  it('shows a wrong key at the key field and an email refused by the server at the email field', async () => {
    server.use(
      http.get('/api/auth/setup', () => HttpResponse.json({ open: true, secretKey: KEY })),
      http.post('/api/auth/promote-owner', () => HttpResponse.json({ error: 'The secret key is not correct.', code: 'invalid_setup_key' }, { status: 403 }), { once: true }),
      http.post('/api/auth/promote-owner', () =>
        HttpResponse.json(
          { error: 'You can only promote the account you are signed in with (me@example.com).', code: 'forbidden', fields: { email: 'Use the email of the account you are signed in with.' } },
          { status: 403 },
        ),
      ),
    )
    const user = renderPage()
    await screen.findByText(KEY)
    await user.type(screen.getByLabelText('Email'), 'other@example.com')
    await user.type(screen.getByLabelText('Secret key'), 'wrong')
    await user.click(screen.getByRole('button', { name: 'Promote to Owner' }))
    await waitFor(() => expect(screen.getByLabelText('Secret key')).toHaveAccessibleDescription('The secret key is not correct.'))
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid')
    await user.click(screen.getByRole('button', { name: 'Promote to Owner' }))
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Use the email of the account you are signed in with.'))
    expect(screen.getByLabelText('Secret key')).not.toHaveAttribute('aria-invalid')
  }, 20_000)

  it('in production says the key is in the server log instead of showing it, and asks a guest to sign in first', async () => {
    server.use(http.get('/api/auth/setup', () => HttpResponse.json({ open: true, keyInLog: true })))
    renderPage()
    expect(await screen.findByTestId('setup-key-in-log')).toHaveTextContent('the server log')
    expect(screen.queryByTestId('setup-key')).toBeNull()
    expect(screen.getByRole('note')).toHaveTextContent('Sign in first')
    expect(screen.getByRole('button', { name: 'Copy' })).toBeDisabled()
    expect(screen.queryByText(/shown above/)).toBeNull()
    expect(screen.getByText(/from the server log/)).toBeInTheDocument()
  })

  it('says setup is complete and shows no key once an owner exists', async () => {
    server.use(http.get('/api/auth/setup', () => HttpResponse.json({ open: false })))
    renderPage()
    expect(await screen.findByRole('heading', { name: 'Setup is complete' })).toBeInTheDocument()
    expect(screen.queryByTestId('setup-key')).toBeNull()
    expect(screen.getAllByRole('link', { name: 'Go to Analytics' })[0]).toHaveAttribute('href', '/analytics')
    expect(screen.queryByText(/shown above/)).toBeNull()
    expect(screen.getByText(/which this page shows only while setup is open/)).toBeInTheDocument()
  })
})
