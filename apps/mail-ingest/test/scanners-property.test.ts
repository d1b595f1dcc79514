import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseHeadersOnly, parseMessage } from '../src/parse-message.js'
import { plainCharset, plainTextBody } from '../src/plain-text-body.js'

/** The pattern plainCharset replaced (quadratic on runs of spaces): the oracle it must agree with, on short values. */
const OLD_PLAIN_TYPE = /^\s*text\/plain\s*(?:;\s*charset\s*=\s*(?:"(utf-8|us-ascii)"|(utf-8|us-ascii))\s*)?;?\s*$/i
function oldPlainCharset(value: string): string | undefined | null {
  const match = OLD_PLAIN_TYPE.exec(value)
  if (!match) return null
  return (match[1] ?? match[2])?.toLowerCase()
}

/** The From split parseHeadersOnly made with /<([^>]*)>/ (quadratic on a From of `<`), as the oracle for short ones. */
function oldFrom(header: string): { name: string; address: string } {
  const angle = /<([^>]*)>/.exec(header)
  return angle ? { name: header.slice(0, angle.index).replace(/"/g, '').trim(), address: angle[1]!.trim() } : { name: '', address: header.trim() }
}

const TYPE_PIECES = [
  'text/plain', 'TEXT/PLAIN', 'text/html', ';', ' ', '\t', '\u00a0', '\ufeff', 'charset', 'CharSet', '=', '"', 'utf-8', 'UTF-8',
  'us-ascii', 'US-ASCII', 'iso-8859-1', 'format=flowed', 'x', '\u212a', '\r\n ',
]
const contentType = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...TYPE_PIECES), { maxLength: 12 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
)

const FROM_PIECES = ['<', '>', '"', ' ', 'Ann', 'ann@example.test', '@', ',', '\t', '(comment)', 'é']
const fromValue = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...FROM_PIECES), { maxLength: 16 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
)

const HEADER_PIECES = ['From: a@b.test', 'Content-Type: ', 'text/plain', '; charset=utf-8', 'Content-Transfer-Encoding: ', '8bit', 'base64', '\r\n', '\n', '\r', ' ', ':', 'X-A: 1', '\r\n\r\n', 'Hi', 'é', '\u00ff']
const rawMessage = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...HEADER_PIECES), { maxLength: 40 }).map((a) => Buffer.from(a.join(''))) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)) },
)

const RUNS = { numRuns: 500 }

describe('ingest-side scanners on random and adversarial input', () => {
  it('plainCharset agrees with the pattern it replaced', () => {
    fc.assert(
      fc.property(contentType, (value) => {
        expect(plainCharset(value)).toBe(oldPlainCharset(value))
      }),
      RUNS,
    )
  })

  it('plainTextBody never throws; what it takes is the header block and the body with CRLF made LF', () => {
    fc.assert(
      fc.property(rawMessage, (raw) => {
        const plain = plainTextBody(raw)
        if (plain === null) return
        expect(raw.subarray(0, plain.head.length).equals(plain.head)).toBe(true)
        expect(plain.head.subarray(-4).toString()).toBe('\r\n\r\n')
        expect(plain.text.toString('latin1')).toBe(raw.subarray(plain.head.length).toString('latin1').replaceAll('\r\n', '\n'))
      }),
      RUNS,
    )
  })

  it('the parseMessage fallback never throws and splits From as the pattern it replaced did', () => {
    fc.assert(
      fc.property(fromValue, fc.string({ maxLength: 40 }), (from, body) => {
        const parsed = parseHeadersOnly(Buffer.from(`From: ${from}\r\nSubject: s\r\n\r\n${body}`))
        expect(parsed.from).toEqual(oldFrom(from.replace(/\r?\n[ \t]+/g, ' ').trim()))
        expect(parsed.subject).toBe('s')
      }),
      RUNS,
    )
  })

  it('parseMessage never throws on random messages', async () => {
    await fc.assert(
      fc.asyncProperty(rawMessage, async (raw) => {
        const parsed = await parseMessage(raw)
        expect(Array.isArray(parsed.headers)).toBe(true)
      }),
      { numRuns: 200 },
    )
    // mailparser per message is milliseconds; hundreds of them on a loaded shared machine take seconds.
  }, 60_000)
})

describe('hostile header values of 1 MB', () => {
  const head = 'From: a@b.test\r\nTo: x@y.test\r\nSubject: s\r\n'

  it('a Content-Type of a million spaces is read in one pass and left to mailparser', async () => {
    const raw = Buffer.from(`${head}Content-Type: text/plain${' '.repeat(1_000_000)}x\r\n\r\nHello\r\n`)
    expect(plainCharset(`text/plain${' '.repeat(1_000_000)}x`)).toBeNull()
    expect(plainCharset(`text/plain;${' '.repeat(1_000_000)}`)).toBeUndefined()
    expect(plainTextBody(raw)).toBeNull()
    const parsed = await parseMessage(raw)
    expect(parsed.from).toEqual({ name: '', address: 'a@b.test' })
    expect(parsed.subject).toBe('s')
    // mailparser reads a 1 MB header in about a second on a loaded shared machine.
  }, 60_000)

  it('a From of a million `<` parses, by mailparser under its header limit and by hand over it', async () => {
    const under = await parseMessage(Buffer.from(`From: ${'<'.repeat(1_000_000)}\r\nSubject: s\r\n\r\nHello\r\n`))
    expect(under.subject).toBe('s')
    expect(String(under.text)).toContain('Hello')
    // Past mailparser's 1 MB header block, the fallback reads it: no `>` anywhere, so the whole value is the address.
    const over = await parseMessage(Buffer.from(`From: ${'<'.repeat(1_100_000)}\r\nSubject: s\r\n\r\nHello\r\n`))
    expect(over.from).toEqual({ name: '', address: '<'.repeat(1_100_000) })
    expect(over.subject).toBe('s')
    expect(parseHeadersOnly(Buffer.from(`From: ${'<'.repeat(1_000_000)}a@b.test>\r\n\r\n`)).from).toEqual({ name: '', address: `${'<'.repeat(999_999)}a@b.test` })
  }, 60_000)
})
