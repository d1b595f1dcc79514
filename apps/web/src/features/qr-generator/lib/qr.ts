import QRCode from 'qrcode'
import { addMissingScheme } from '../../../lib/web-address'

/** Spec §9: the image is 200×200. */
export const QR_SIZE = 200
export const QR_FILE_NAME = 'qr-code.png'

/** Quiet zone around the code, in modules. */
const QR_MARGIN = 2
/**
 * Error correction L (7 % of the code may be damaged): the level that holds the most, which matters more for a code
 * shown on a screen or printed clean than surviving a torn sticker.
 */
const QR_OPTIONS = { margin: QR_MARGIN, errorCorrectionLevel: 'L' as const, color: { dark: '#000000', light: '#ffffff' } }

/** The most a QR code holds as bytes (version 40, level L). Any text of at most this many UTF-8 bytes fits. */
export const QR_MAX_BYTES = 2953

/** The text's size as the code stores it: UTF-8 bytes (an accented letter takes 2, most Chinese characters 3). */
export function qrByteLength(value: string): number {
  return new TextEncoder().encode(value).length
}

/** What goes into the code: the text as typed, or a bare domain with https:// in front (spec §5). */
export const prepareQrText = addMissingScheme

/**
 * A PNG data URL made here, in the browser (nothing typed leaves the machine), shown at 200×200. Every module gets
 * the same whole number of pixels, at least 200 in all: squeezing a dense code into exactly 200 pixels gives modules
 * of uneven width, which scanners misread (a code near the limit has 177 modules a side).
 */
export async function makeQrDataUrl(value: string): Promise<string> {
  const modules = QRCode.create(value, QR_OPTIONS).modules.size
  const scale = Math.ceil(QR_SIZE / (modules + 2 * QR_MARGIN))
  return QRCode.toDataURL(value, { ...QR_OPTIONS, scale, type: 'image/png' })
}

export function dataUrlToBlob(dataUrl: string): Blob {
  const [head = '', base64 = ''] = dataUrl.split(',')
  const type = /data:([^;]+)/.exec(head)?.[1] ?? 'image/png'
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
  return new Blob([bytes], { type })
}
