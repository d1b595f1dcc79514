import { describe, expect, it } from 'vitest'
import { fullSource, toStoredSource } from '../src/index.js'

const head = 'From: a@example.test\r\nSubject: Hi\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n'

function roundTrip(received: Buffer, text: string | null) {
  const stored = toStoredSource(received, text)
  return { stored, rebuilt: fullSource({ raw: stored.raw, text, raw_body_is_text: stored.bodyIsText ? 1 : 0 }) }
}

describe('stored message source', () => {
  it('keeps only the header block when the body is exactly the text, and rebuilds the same bytes', () => {
    const received = Buffer.from(`${head}Hello\r\nÜber 2 Zeilen\r\n\r\n`)
    const { stored, rebuilt } = roundTrip(received, 'Hello\nÜber 2 Zeilen\n\n')
    expect(stored).toEqual({ raw: Buffer.from(head), bodyIsText: true, size: received.length })
    expect(rebuilt.equals(received)).toBe(true)
  })

  it('stores the whole source whenever the body is anything but the text itself', () => {
    const cases: Array<[string, string | null]> = [
      // Quoted-printable: the text is decoded, the body is not.
      [`${head.replace('\r\n\r\n', '\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n')}caf=C3=A9\r\n`, 'café\n'],
      // MIME parts: boundaries are not in the text.
      [`${head}--b\r\n\r\nHello\r\n--b--\r\n`, 'Hello\n'],
      // Bare LF line ends cannot be rebuilt from the text.
      ['Subject: x\n\nHello\nthere\n', 'Hello\nthere\n'],
      // No text, or no header/body split at all.
      [`${head}<p>Hi</p>\r\n`, null],
      ['Subject: no body', 'Subject: no body'],
      // Same length, different bytes.
      [`${head}Hellp\r\n`, 'Hello\n'],
    ]
    for (const [source, text] of cases) {
      const received = Buffer.from(source)
      const { stored, rebuilt } = roundTrip(received, text)
      expect(stored.bodyIsText, source).toBe(false)
      expect(stored.raw).toBe(received)
      expect(rebuilt.equals(received)).toBe(true)
    }
  })

  it('splits a text whose first lines hold characters outside the BMP and line ends', () => {
    // 🎉 straddles the 32nd UTF-16 unit, and the LFs are CRLF in the body: the quick look at the start must allow both.
    const text = 'Line one\nLine two\n0123456789abc🎉 party\nend\n'
    const received = Buffer.from(`${head}${text.replaceAll('\n', '\r\n')}`)
    const { stored, rebuilt } = roundTrip(received, text)
    expect(stored.bodyIsText).toBe(true)
    expect(rebuilt.equals(received)).toBe(true)
  })

  it('round-trips a body that is empty or made only of blank lines', () => {
    for (const body of ['', '\r\n', '\r\n\r\n\r\n']) {
      const received = Buffer.from(`${head}${body}`)
      const text = body.replace(/\r\n/g, '\n')
      const { rebuilt } = roundTrip(received, text)
      expect(rebuilt.equals(received)).toBe(true)
    }
  })
})

describe('stored message source, bytes that are not UTF-8', () => {
  it('keeps a body with invalid UTF-8 whole even when its text reads the same', () => {
    const received = Buffer.concat([Buffer.from(head), Buffer.from([0x48, 0x69, 0xff, 0x0d, 0x0a])])
    const stored = toStoredSource(received, 'Hi\uFFFD\n')
    expect(stored.bodyIsText).toBe(false)
    expect(stored.raw).toBe(received)
  })
})
