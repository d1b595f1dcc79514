import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { MessageAuth } from '@tempbox/types'
import { SWRConfig } from 'swr'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import '../../../../lib/i18n'
import { swrConfig } from '../../../../lib/swr'
import { fullMessage } from '../../../../testing/mocks/email-data'
import { emailState, TEST_ADDRESS } from '../../../../testing/mocks/email-handlers'
import { server } from '../../../../testing/mocks/server'
import { useNow } from '../../hooks/use-now'
import { MessageViewer } from './message-viewer'

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(() => emailState.reset())
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

/** The values of the headers list (the viewer's From/To/Date are definitions too). */
const headerValues = () => within(screen.getByText('subject:').closest('dl')!).getAllByRole('definition').map((v) => v.textContent)

function renderViewer(id: string) {
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <MessageViewer address={TEST_ADDRESS} id={id} onClose={() => {}} onDelete={() => {}} />
    </SWRConfig>,
  )
}

const TRUNCATED_NOTE = "This message's text is too long to show in full; download the .eml to read all of it."

describe('a text longer than the server sends', () => {
  it('shows its beginning with a note to download the .eml', async () => {
    emailState.details.set('7', fullMessage({ id: '7', subject: 'Server log', content: 'First lines of a long log', contentTruncated: true }))
    renderViewer('7')
    expect(await screen.findByRole('note')).toHaveTextContent(TRUNCATED_NOTE)
    expect(screen.getByText('First lines of a long log')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download .eml' })).toHaveAttribute('href', `/api/email/${encodeURIComponent(TEST_ADDRESS)}/messages/7/raw`)
  })

  it('shows no note for a text sent whole', async () => {
    emailState.details.set('8', fullMessage({ id: '8', subject: 'Short', content: 'All of it' }))
    renderViewer('8')
    expect(await screen.findByText('All of it')).toBeInTheDocument()
    expect(screen.queryByRole('note')).not.toBeInTheDocument()
  })

  it('offers HTML and text views only when there is a text part, and notes the cut text in the text view', async () => {
    emailState.details.set('9', fullMessage({ id: '9', html: '<p>Hi</p>', content: 'Long text start', contentTruncated: true }))
    renderViewer('9')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Text' }))
    expect(screen.getByRole('note')).toHaveTextContent(TRUNCATED_NOTE)
    expect(screen.getByText('Long text start')).toBeInTheDocument()

    emailState.details.set('10', fullMessage({ id: '10', html: '<p>Hi</p>', hasTextPart: false, content: 'Hi' }))
    renderViewer('10')
    expect(await screen.findAllByTitle('Message content')).not.toHaveLength(0)
    expect(screen.queryAllByRole('group', { name: 'Show as' })).toHaveLength(1)
  })
})

describe('headers the server cut for display', () => {
  it('end a cut value with "…", and a cut list with a last "…" line', async () => {
    emailState.details.set('11', fullMessage({
      id: '11',
      headers: [{ name: 'content-type', value: 'text/plain; x=aaaa', truncated: true }, { name: 'subject', value: 'Whole' }],
      headersTruncated: true,
    }))
    renderViewer('11')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Headers' }))
    expect(headerValues()).toEqual(['text/plain; x=aaaa…', 'Whole'])
    expect(screen.getByText('…', { selector: 'p' })).toBeInTheDocument()
  })

  it('show whole values and no "…" line when nothing was cut', async () => {
    emailState.details.set('12', fullMessage({ id: '12', headers: [{ name: 'subject', value: 'Whole' }], headersTruncated: false }))
    renderViewer('12')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Headers' }))
    expect(headerValues()).toEqual(['Whole'])
    expect(screen.queryByText('…', { selector: 'p' })).not.toBeInTheDocument()
  })
})

describe('a message with more attachments than the server lists', () => {
  const files = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ index: i, filename: `file-${i}.bin`, contentType: 'application/octet-stream', size: 0, contentId: null, inline: false }))

  it('lists the ones sent and says under the list how many there are, pointing at the .eml', async () => {
    emailState.details.set('20', fullMessage({ id: '20', attachments: files(100), attachmentCount: 10_000, attachmentsTruncated: true }))
    renderViewer('20')
    expect(await screen.findByRole('note')).toHaveTextContent('Showing the first 100 of 10,000 attachments. Download the .eml to get them all.')
    expect(screen.getAllByRole('link', { name: /^Download file-/ })).toHaveLength(100)
    expect(screen.getByRole('link', { name: 'Download file-99.bin' })).toHaveAttribute('href', `/api/email/${encodeURIComponent(TEST_ADDRESS)}/messages/20/attachments/99`)
    expect(screen.getByRole('link', { name: 'Download .eml' })).toHaveAttribute('href', `/api/email/${encodeURIComponent(TEST_ADDRESS)}/messages/20/raw`)
  })

  it('says nothing more when every attachment is listed', async () => {
    emailState.details.set('21', fullMessage({ id: '21', attachments: files(2), attachmentCount: 2, attachmentsTruncated: false }))
    renderViewer('21')
    expect(await screen.findByRole('link', { name: 'Download file-1.bin' })).toBeInTheDocument()
    expect(screen.queryByRole('note')).not.toBeInTheDocument()
  })
})

describe('a sender check still running', () => {
  const checked: MessageAuth = {
    status: 'pass', fromDomain: 'github.com', spf: null, dkim: [{ result: 'pass', domain: 'github.com', selector: 's1', aligned: true }],
    dmarc: { result: 'pass', domain: 'github.com', policy: 'reject' }, arc: null, authenticationResults: null, checkedAt: '2026-11-24T08:00:00.000Z',
  }

  /** The viewer as the inbox shows it: the tool around it re-renders every second (its countdown and relative times). */
  function TickingInbox() {
    useNow(1000)
    return <MessageViewer address={TEST_ADDRESS} id="30" onClose={() => {}} onDelete={() => {}} />
  }

  it('is asked for again until its verdict is in, while the page around it re-renders every second', async () => {
    const message = fullMessage({ id: '30', subject: 'Signed by GitHub' })
    emailState.details.set('30', { ...message, auth: { ...checked, status: 'checking', dkim: [], dmarc: null, checkedAt: null } })
    render(
      <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
        <TickingInbox />
      </SWRConfig>,
    )
    expect(await screen.findByText('Checking…')).toBeInTheDocument()
    emailState.details.set('30', { ...message, auth: checked })
    expect(await screen.findByText('Verified: sent by github.com')).toBeInTheDocument()
  })
})
