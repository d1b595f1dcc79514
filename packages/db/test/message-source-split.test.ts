import { describe, expect, it } from 'vitest'
import { fullSource, toStoredSource } from '../src/message-source.js'

const HEADER = 'From: a@example.test\r\nSubject: split\r\n\r\n'

/** Stores `received` with `text` as its text part and rebuilds it: the rebuild must always give back the same bytes. */
function roundTrip(received: Buffer, text: string | null) {
  const stored = toStoredSource(received, text)
  expect(fullSource({ raw: stored.raw, text, raw_body_is_text: stored.bodyIsText ? 1 : 0 })).toEqual(received)
  expect(stored.size).toBe(received.length)
  return stored
}

describe('toStoredSource', () => {
  it('splits off a body that is the text with CRLF, of any length, and rebuilds it byte for byte', () => {
    for (const text of ['hello', 'line one\nline two\n', 'x'.repeat(100), `${'a'.repeat(31)}😀 and the rest`, `${'a'.repeat(31)}\u{10000} (U+D800 first)`, 'é'.repeat(40)]) {
      const received = Buffer.from(HEADER + text.replaceAll('\n', '\r\n'))
      const stored = roundTrip(received, text)
      expect([text.slice(0, 10), stored.bodyIsText]).toEqual([text.slice(0, 10), true])
      expect(stored.raw.toString()).toBe(HEADER)
    }
  })

  it('keeps the source whole when the body differs from the text anywhere, even past its first bytes', () => {
    const text = `${'same start '.repeat(5)}then the text says one thing`
    expect(roundTrip(Buffer.from(`${HEADER}${'same start '.repeat(5)}then the body says another`), text).bodyIsText).toBe(false)
    // Bare LF in the body: the text's LF would be rebuilt as CRLF.
    expect(roundTrip(Buffer.from(`${HEADER}one\ntwo`), 'one\ntwo').bodyIsText).toBe(false)
    // One more byte in the body than the text accounts for.
    expect(roundTrip(Buffer.from(`${HEADER}hello!`), 'hello').bodyIsText).toBe(false)
  })

  it('keeps the source whole when the body is not valid UTF-8, though it decodes to the text', () => {
    const received = Buffer.concat([Buffer.from(HEADER), Buffer.from([0x61, 0xff, 0x62])])
    expect(roundTrip(received, 'a\uFFFDb').bodyIsText).toBe(false)
  })

  it('keeps the source whole with no text, an empty text, or no blank line ending the header', () => {
    expect(roundTrip(Buffer.from(`${HEADER}body`), null)).toEqual({ raw: Buffer.from(`${HEADER}body`), bodyIsText: false, size: HEADER.length + 4 })
    expect(roundTrip(Buffer.from(HEADER), '').bodyIsText).toBe(false)
    // No blank line: the tail that happens to equal the text is still header, never a body.
    expect(roundTrip(Buffer.from('Subject: abc\r\ndef'), 'def').bodyIsText).toBe(false)
    expect(roundTrip(Buffer.from('abcdef'), 'def').bodyIsText).toBe(false)
  })

  it('splits at a blank line at the very start (a message with no header at all)', () => {
    const stored = roundTrip(Buffer.from('\r\n\r\nonly a body'), 'only a body')
    expect(stored).toEqual({ raw: Buffer.from('\r\n\r\n'), bodyIsText: true, size: 15 })
  })

  it('trusts a caller that knows where the body starts', () => {
    const received = Buffer.from(`${HEADER}known`)
    expect(toStoredSource(received, Buffer.from('known'), HEADER.length)).toEqual({ raw: Buffer.from(HEADER), bodyIsText: true, size: received.length })
  })
})

describe('fullSource', () => {
  it('gives back the stored header alone when the text is missing, and the whole raw when not split', () => {
    expect(fullSource({ raw: Buffer.from(HEADER), text: null, raw_body_is_text: 1 })).toEqual(Buffer.from(HEADER))
    expect(fullSource({ raw: Buffer.from('whole'), text: 'ignored', raw_body_is_text: 0 })).toEqual(Buffer.from('whole'))
  })
})
