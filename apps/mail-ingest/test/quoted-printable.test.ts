import { describe, expect, it } from 'vitest'
import { requireFromMailsplit } from '../src/header-budget.js'
import { random } from '../../../tests/support/seeded-random.js'

/** The libqp that mailparser decodes quoted-printable parts with (through mailsplit): our patched copy. */
const libqp = requireFromMailsplit('libqp') as { decode: (input: string | Buffer) => Buffer }

/** libqp 2.1.2's decode before our patch (MIT, © Andris Reinman), kept as the reference the patch must match. */
function referenceDecode(input: string | Buffer): Buffer {
  const str = (Buffer.isBuffer(input) ? input.toString('binary') : (input || '').toString())
    .replace(/[\t ]+$/gm, '')
    .replace(/=(?:\r?\n|$)/g, '')
  const encodedBytesCount = (str.match(/=[\da-fA-F]{2}/g) || []).length
  const buffer = Buffer.alloc(str.length - encodedBytesCount * 2)
  let bufferPos = 0
  for (let i = 0, len = str.length; i < len; i++) {
    const chr = str.charAt(i)
    const hex = str.substr(i + 1, 2)
    if (chr === '=' && hex && /[\da-fA-F]{2}/.test(hex)) {
      buffer[bufferPos++] = parseInt(hex, 16)
      i += 2
      continue
    }
    buffer[bufferPos++] = chr.charCodeAt(0)
  }
  return buffer
}

/** Pieces that exercise every rule: escapes in either case, broken escapes, soft breaks, trailing blanks, 8-bit text. */
const PIECES = ['=', 'A', 'f', '3', 'D', 'g', ' ', '\t', '\r', '\n', '\r\n', '=\r\n', '=\n', '=3D', '=3d', '=C3=A9', '= ', '=4', '==41', 'é', '€', '🎉', 'x']

describe('quoted-printable decoding (patched libqp)', () => {
  it('decodes the usual HTML escapes and soft line breaks', () => {
    const encoded = '<p style=3D"color:#333">Gr=C3=BC=C3=9Fe, caf=C3=A9 =\r\nand more</p>   \r\n'
    expect(libqp.decode(Buffer.from(encoded)).toString('utf8')).toBe('<p style="color:#333">Grüße, café and more</p>\r\n')
  })

  it('decodes a body of 4 MB of blanks before a letter, and 4 MB of blanks before a line end, in one pass', () => {
    // The replacement the patch stands for rescanned a run of blanks from every position inside it: a 4 MB run held
    // a parser for hours. Linear, both decode in milliseconds, inside the test's time limit.
    const run = ' \t'.repeat(2 * 1024 * 1024)
    expect(libqp.decode(Buffer.from(`a${run}x=\r\nb`)).toString('latin1')).toBe(`a${run}xb`)
    expect(libqp.decode(Buffer.from(`a${run}\r\nb${run}`)).toString('latin1')).toBe('a\r\nb')
  })

  it('gives byte for byte what libqp 2.1.2 gave, for buffers and strings alike (60,000 random inputs)', () => {
    const next = random(20261123)
    let checked = 0
    for (let n = 0; n < 20_000; n++) {
      let text = ''
      for (let length = Math.floor(next() * 40); length > 0; length--) text += PIECES[Math.floor(next() * PIECES.length)]
      for (const input of [Buffer.from(text, 'utf8'), Buffer.from(text, 'latin1'), text]) {
        const expected = referenceDecode(input)
        const actual = libqp.decode(input)
        if (!actual.equals(expected)) expect({ input: JSON.stringify(text), actual: [...actual] }).toEqual({ input: JSON.stringify(text), actual: [...expected] })
        checked++
      }
    }
    expect(checked).toBe(60_000)
  })
})
