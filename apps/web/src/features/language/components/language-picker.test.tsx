import '../../../lib/i18n'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { countDisplayNames } from '../../../testing/count-display-names'
import { LanguagePicker } from './language-picker'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

describe('LanguagePicker', () => {
  it('lists every language with its country in the reader’s language, naming countries only once the menu opens', async () => {
    const made = countDisplayNames()
    render(<LanguagePicker variant="header" />)
    // A page renders the picker on every load; its closed menu names no country.
    expect(made).not.toHaveBeenCalled()

    await userEvent.click(screen.getByTestId('language-picker-header'))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getAllByRole('menuitemradio')).toHaveLength(24)
    expect(within(screen.getByTestId('language-option-ur')).getByText('اردو')).toBeTruthy()
    expect(within(screen.getByTestId('language-option-ur')).getByText('Pakistan')).toBeTruthy()
    expect(within(screen.getByTestId('language-option-es')).getByText('Spain')).toBeTruthy()
    // One table of region names serves the whole menu (none when another test of this worker left English's made).
    expect(made.mock.calls.length).toBeLessThanOrEqual(1)
  })
})
