import QRCode from 'qrcode'
import { addMissingScheme } from '../../../lib/web-address'

/** Spec §9: the image is 200×200. */
export const QR_SIZE = 200
export const QR_FILE_NAME = 'qr-code.png'

const QR_OPTIONS = { width: QR_SIZE, margin: 2, errorCorrectionLevel: 'M' as const, color: { dark: '#000000', light: '#ffffff' } }

/** What goes into the code: the text as typed, or a bare domain with https:// in front (spec §5). */
export const prepareQrText = addMissingScheme

/** A 200×200 PNG data URL made here, in the browser (nothing typed leaves the machine). */
export function makeQrDataUrl(value: string): Promise<string> {
  return QRCode.toDataURL(value, { ...QR_OPTIONS, type: 'image/png' })
}

export function dataUrlToBlob(dataUrl: string): Blob {
  const [head = '', base64 = ''] = dataUrl.split(',')
  const type = /data:([^;]+)/.exec(head)?.[1] ?? 'image/png'
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
  return new Blob([bytes], { type })
}
