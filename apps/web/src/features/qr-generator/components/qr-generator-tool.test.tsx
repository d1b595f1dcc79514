import '../../../lib/i18n'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { dismissToast, Toaster } from '@tempbox/ui'
import { PNG } from 'pngjs'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { QrGeneratorTool } from './qr-generator-tool'

beforeEach(() => dismissToast())
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

function renderTool() {
  const user = userEvent.setup()
  render(
    <>
      <QrGeneratorTool />
      <Toaster />
    </>,
  )
  return user
}

describe('QrGeneratorTool', () => {
  it('keeps Generate disabled while the text is empty', async () => {
    const user = renderTool()
    expect(screen.getByRole('button', { name: 'Generate' })).toBeDisabled()
    await user.type(screen.getByLabelText('Text or URL'), 'a')
    expect(screen.getByRole('button', { name: 'Generate' })).toBeEnabled()
  })

  it('asks for text when only spaces were typed', async () => {
    const user = renderTool()
    await user.type(screen.getByLabelText('Text or URL'), '   {Enter}')
    expect(await screen.findByText('Please enter some text to generate a QR code.')).toBeInTheDocument()
  })

  it('asks to generate first before download or copy', async () => {
    const user = renderTool()
    await user.click(screen.getByRole('button', { name: 'Copy' }))
    expect(await screen.findByText('Please generate a QR code first.')).toBeInTheDocument()
  })

  it('generates on Enter and formats a bare domain', async () => {
    const user = renderTool()
    await user.type(screen.getByLabelText('Text or URL'), 'example.org{Enter}')
    const img = await screen.findByRole('img', { name: 'QR code for https://example.org' })
    expect(img.getAttribute('src')).toMatch(/^data:image\/png;base64,/)
    expect(img).toHaveAttribute('width', '200')
    expect(await screen.findByText('URL Formatted')).toBeInTheDocument()
    expect(screen.getByLabelText('Text or URL')).toHaveValue('https://example.org')
  })

  it('refuses text too long for a QR code with its limit, and drops the code shown before', async () => {
    const user = renderTool()
    const input = screen.getByLabelText('Text or URL')
    await user.type(input, 'hello{Enter}')
    expect(await screen.findByRole('img', { name: 'QR code for hello' })).toBeInTheDocument()

    fireEvent.change(input, { target: { value: 'é'.repeat(1_500) } })
    await user.click(screen.getByRole('button', { name: 'Generate' }))
    await waitFor(() => expect(input).toHaveAccessibleDescription('Too long for a QR code: at most 2,953 bytes, and this text has 3,000.'))
    expect(screen.queryByRole('img')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Download' }))
    expect(await screen.findByText('Please generate a QR code first.')).toBeInTheDocument()
  })

  it('downloads qr-code.png at the size chosen', async () => {
    const blobs: Blob[] = []
    const createObjectURL = vi.fn((blob: Blob) => (blobs.push(blob), 'blob:qr'))
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }))
    const clicked: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download)
    })
    const user = renderTool()
    await user.type(screen.getByLabelText('Text or URL'), 'hello{Enter}')
    await screen.findByRole('img', { name: 'QR code for hello' })
    await user.selectOptions(screen.getByLabelText('Download size'), '1,024 × 1,024 px')
    await user.click(screen.getByRole('button', { name: 'Download' }))
    await waitFor(() => expect(clicked).toEqual(['qr-code.png']))
    const png = PNG.sync.read(Buffer.from(await blobs[0]!.arrayBuffer()))
    expect([png.width, png.height]).toEqual([1024, 1024])
  })
})
