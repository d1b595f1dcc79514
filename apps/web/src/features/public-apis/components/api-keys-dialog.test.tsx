import '../../../lib/i18n'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { PUBLIC_APIS } from '../lib/public-apis'
import { ApiKeysDialog } from './api-keys-dialog'

describe('ApiKeysDialog', () => {
  it("links to our own API documentation beside the spec's list of public APIs", async () => {
    const user = userEvent.setup()
    render(<ApiKeysDialog />)
    await user.click(screen.getByRole('button', { name: 'Free public APIs' }))
    const dialog = await screen.findByRole('dialog', { name: 'Free Public APIs' })
    expect(within(dialog).getByRole('region', { name: "Tempbox's own API" })).toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'API documentation' })).toHaveAttribute('href', '/api/docs')
    expect(within(dialog).getAllByRole('heading', { level: 3 })).toHaveLength(PUBLIC_APIS.length + 1)
  })
})
