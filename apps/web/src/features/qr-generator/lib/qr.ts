import QRCode from 'qrcode'
import { addMissingScheme } from '../../../lib/web-address'

/** Spec §9: the image is 200×200. */
export const QR_SIZE = 200
export const QR_FILE_NAME = 'qr-code.png'

/** Quiet zone around the code, in modules: the 4 the QR standard (ISO/IEC 18004) asks for, so every scanner finds it. */
export const QR_MARGIN = 4
/** Sizes offered for the download, in pixels a side: the 200 shown (spec §9), and larger ones for print. */
export const QR_DOWNLOAD_SIZES = [QR_SIZE, 512, 1024] as const
export type QrDownloadSize = (typeof QR_DOWNLOAD_SIZES)[number]
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

/** Modules of at least this many pixels read well even when their widths differ by one pixel. */
const MIN_EVEN_MODULE_PX = 4

/**
 * A PNG data URL made here, in the browser (nothing typed leaves the machine): `size` pixels a side (200, spec §9)
 * when its modules get 4 pixels or more. A denser code gets the same whole number of pixels for every module, a little
 * over `size` in all: squeezed into exactly that, its modules would differ in width, which scanners misread (near the
 * limit there are 177 modules a side). The page shows it at 200×200 either way.
 */
export async function makeQrDataUrl(value: string, size: number = QR_SIZE): Promise<string> {
  const modules = QRCode.create(value, QR_OPTIONS).modules.size + 2 * QR_MARGIN
  if (size / modules >= MIN_EVEN_MODULE_PX) return QRCode.toDataURL(value, { ...QR_OPTIONS, width: size, type: 'image/png' })
  return QRCode.toDataURL(value, { ...QR_OPTIONS, scale: Math.ceil(size / modules), type: 'image/png' })
}

export function dataUrlToBlob(dataUrl: string): Blob {
  const [head = '', base64 = ''] = dataUrl.split(',')
  const type = /data:([^;]+)/.exec(head)?.[1] ?? 'image/png'
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
  return new Blob([bytes], { type })
}
