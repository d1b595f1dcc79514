import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import QRCode from 'qrcode'
import { makeQrDataUrl, prepareQrText, QR_MARGIN, QR_MAX_BYTES, QR_SIZE, qrByteLength } from './qr'

function decode(dataUrl: string): { text: string | undefined; width: number; height: number } {
  const png = PNG.sync.read(Buffer.from(dataUrl.split(',')[1]!, 'base64'))
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
  return { text: code?.data, width: png.width, height: png.height }
}

describe('QR round trip (generate the PNG, decode it back)', () => {
  it.each([
    ['ASCII text', 'Hello, world! 123'],
    ['a long URL', `https://example.com/some/really/long/path?${Array.from({ length: 20 }, (_, i) => `param${i}=value${i}`).join('&')}`],
    ['non-Latin text', 'Привет, мир · 你好世界 · مرحبا بالعالم · こんにちは'],
  ])('%s', async (_label, text) => {
    const decoded = decode(await makeQrDataUrl(text))
    // 200 pixels a side, or a little more for a dense code (a whole number of pixels per module); shown at 200×200.
    if (text.length < 20) expect(decoded.width).toBe(QR_SIZE)
    else expect(decoded.width).toBeGreaterThanOrEqual(QR_SIZE)
    expect(decoded.height).toBe(decoded.width)
    expect(decoded.text).toBe(text)
  })
})

/** Rows of white pixels above the first dark one. */
function whiteRowsOnTop(dataUrl: string): { rows: number; width: number } {
  const png = PNG.sync.read(Buffer.from(dataUrl.split(',')[1]!, 'base64'))
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) if (png.data[(y * png.width + x) * 4]! < 128) return { rows: y, width: png.width }
  }
  return { rows: png.height, width: png.width }
}

describe('QR quiet zone and sizes', () => {
  it('leaves the standard 4-module quiet zone around the code', async () => {
    expect(QR_MARGIN).toBe(4)
    for (const text of ['Hello, world! 123', 'https://example.com/' + 'x'.repeat(300)]) {
      const modules = QRCode.create(text, { errorCorrectionLevel: 'L' }).modules.size + 2 * QR_MARGIN
      const { rows, width } = whiteRowsOnTop(await makeQrDataUrl(text))
      expect(rows / (width / modules)).toBeGreaterThanOrEqual(QR_MARGIN - 0.5)
      expect(rows / (width / modules)).toBeLessThan(QR_MARGIN + 0.5)
    }
  })

  it('makes the larger download sizes, which still decode', async () => {
    for (const size of [512, 1024]) {
      const decoded = decode(await makeQrDataUrl('https://example.com/a', size))
      expect(decoded.width).toBe(size)
      expect(decoded.text).toBe('https://example.com/a')
    }
  })
})

describe('prepareQrText', () => {
  it('puts https:// in front of a bare domain and says so', () => {
    expect(prepareQrText('example.com')).toEqual({ value: 'https://example.com', formatted: true })
    expect(prepareQrText(' www.example.co.uk/path?x=1 ')).toEqual({ value: 'https://www.example.co.uk/path?x=1', formatted: true })
  })

  it('leaves full URLs and ordinary text alone', () => {
    expect(prepareQrText('https://example.com')).toEqual({ value: 'https://example.com', formatted: false })
    expect(prepareQrText('http://example.com')).toEqual({ value: 'http://example.com', formatted: false })
    expect(prepareQrText('Hello there. How are you')).toEqual({ value: 'Hello there. How are you', formatted: false })
    expect(prepareQrText('mailto:a@example.com')).toEqual({ value: 'mailto:a@example.com', formatted: false })
    expect(prepareQrText('3.14')).toEqual({ value: '3.14', formatted: false })
  })
})

describe('QR capacity (level L)', () => {
  it('measures text in UTF-8 bytes', () => {
    expect(qrByteLength('abc')).toBe(3)
    expect(qrByteLength('é')).toBe(2)
    expect(qrByteLength('你好')).toBe(6)
    expect(qrByteLength('👋')).toBe(4)
  })

  it('fits text of exactly the limit, and the library refuses one byte more', async () => {
    const atLimit = 'x'.repeat(QR_MAX_BYTES)
    expect(decode(await makeQrDataUrl(atLimit)).text).toBe(atLimit)
    await expect(makeQrDataUrl(`${atLimit}x`)).rejects.toThrow()
  }, 30_000)
})
