import '../../../../lib/i18n'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { MessageAuth } from '@tempbox/types'
import { describe, expect, it } from 'vitest'
import { SenderCheck } from './sender-check'

const verified: MessageAuth = {
  status: 'pass',
  fromDomain: 'github.com',
  spf: { result: 'softfail', domain: 'github.com' },
  dkim: [{ result: 'pass', domain: 'github.com', selector: 's1', aligned: true }],
  dmarc: { result: 'pass', domain: 'github.com', policy: 'reject' },
  arc: null,
  authenticationResults: 'tempbox.test; dkim=pass header.i=@github.com; dmarc=pass',
  checkedAt: '2026-11-24T08:00:00.000Z',
}

describe('SenderCheck', () => {
  it('says who verifiably sent the mail, and lists each result on request', async () => {
    render(<SenderCheck auth={verified} />)
    expect(screen.getByRole('status')).toHaveTextContent('Verified: sent by github.com')
    await userEvent.click(screen.getByRole('button', { name: 'Details' }))
    expect(screen.getByText('The domain github.com proved that this message comes from it.')).toBeInTheDocument()
    expect(screen.getByText('DKIM (signature)').nextSibling).toHaveTextContent('passed · github.com (matches the sender)')
    expect(screen.getByText('SPF (sending server)').nextSibling).toHaveTextContent('soft fail · github.com')
    expect(screen.getByText('DMARC (domain policy)').nextSibling).toHaveTextContent('passed · github.com')
    expect(screen.getByText(/dkim=pass header\.i=@github\.com/)).toBeInTheDocument()
  })

  it('warns about a mail that claims a domain it is not from', () => {
    render(<SenderCheck auth={{ ...verified, status: 'fail', fromDomain: 'paypal.com', dkim: [{ result: 'pass', domain: 'attacker.example', selector: 's', aligned: false }] }} />)
    expect(screen.getByRole('status')).toHaveTextContent('Failed: claims paypal.com but is not from it')
  })

  it('shows not verified, checking and unknown plainly, and nothing for a message never checked', () => {
    const none = { ...verified, status: 'none' as const, dkim: [], dmarc: null, spf: null }
    const { rerender, container } = render(<SenderCheck auth={none} />)
    expect(screen.getByRole('status')).toHaveTextContent('Not verified')
    rerender(<SenderCheck auth={{ ...none, status: 'checking' }} />)
    expect(screen.getByRole('status')).toHaveTextContent('Checking…')
    expect(screen.queryByRole('button', { name: 'Details' })).not.toBeInTheDocument()
    rerender(<SenderCheck auth={{ ...none, status: 'unknown' }} />)
    expect(screen.getByRole('status')).toHaveTextContent('Unknown')
    rerender(<SenderCheck auth={null} />)
    expect(container).toBeEmptyDOMElement()
  })
})
