import { readFileSync } from 'node:fs'
import { toStoredSource } from '@tempbox/db'
import { describe, expect, it } from 'vitest'
import { parseMessage } from '../src/parse-message.js'
import { plainTextBody } from '../src/plain-text-body.js'
import { realMailFiles } from '../../../tests/support/real-mail-corpus.js'
import { random } from '../../../tests/support/seeded-random.js'

const HEAD = 'From: "Ann" <ann@example.test>\r\nTo: box@tempbox.test\r\nSubject: Hello\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n'
/**
 * Parses `raw` with the shortcut and without, and requires the same message; whether the shortcut applied. Where the
 * body is the text itself, the body start it reports must split the source exactly as the full byte check does.
 */
async function expectSameAsMailparser(raw: Buffer, name: string): Promise<boolean> {
  const { plainBodyStart, ...fast } = await parseMessage(raw)
  const slow = await parseMessage(raw, { plainTextShortcut: false })
  expect(typeof slow.text === 'string' || slow.text === null, name).toBe(true)
  // The shortcut hands the text over as UTF-8 bytes: they must decode to mailparser's very string.
  const text = Buffer.isBuffer(fast.text) ? fast.text.toString('utf8') : fast.text
  expect({ ...fast, text }, name).toEqual(slow)
  // Only the shortcut hands the text over as bytes.
  if (!Buffer.isBuffer(fast.text)) {
    expect(plainBodyStart, name).toBeUndefined()
    return false
  }
  // A decoded (quoted-printable) body is not the text: its source is stored whole.
  if (plainBodyStart !== undefined) expect(toStoredSource(raw, fast.text, plainBodyStart), name).toEqual(toStoredSource(raw, text))
  else expect(/^content-transfer-encoding:\s*quoted-printable/im.test(raw.toString('latin1')), name).toBe(true)
  return true
}

const message = (headers: string, body: string | Buffer) => Buffer.concat([Buffer.from(`${HEAD}${headers}\r\n`), Buffer.from(body)])

/** [what, message, whether the shortcut applies]; in every case the parse must equal mailparser's own. */
const CASES: Array<[string, Buffer, boolean]> = [
  ['no Content-Type at all', message('', 'Hello\r\nthere\r\n'), true],
  ['UTF-8, 8bit', message('Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n', 'Grüße, Zoë 🎉\r\n'), true],
  ['quoted, upper-case charset, folded header', message('Content-Type: text/plain;\r\n charset="UTF-8"\r\n', 'Code 4821\r\n\r\n'), true],
  ['no final line end', message('Content-Type: text/plain; charset=us-ascii\r\n', 'last line'), true],
  ['byte order mark before the headers', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), message('', 'Hi\r\n')]), true],
  ['empty body', message('Content-Type: text/plain\r\n', ''), false],
  ['100 KB of text', message('Content-Type: text/plain; charset=utf-8\r\n', 'The quick brown fox jumps over the lazy dog.\r\n'.repeat(2300)), true],
  ['8-bit bytes declared US-ASCII', message('Content-Type: text/plain; charset=us-ascii\r\n', 'caf\u00e9\r\n'), false],
  ['Latin-1', message('Content-Type: text/plain; charset=iso-8859-1\r\n', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0d, 0x0a])), false],
  ['invalid UTF-8', message('Content-Type: text/plain; charset=utf-8\r\n', Buffer.from([0x48, 0xff, 0x0d, 0x0a])), false],
  ['format=flowed', message('Content-Type: text/plain; charset=utf-8; format=flowed\r\n', 'soft \r\nbreak\r\n'), false],
  ['quoted-printable', message('Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n', 'caf=C3=A9\r\n'), true],
  ['quoted-printable: soft breaks, lower-case escapes, blanks before line ends, an escape across a soft break', message('Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n', 'Gr=c3=bc=C3=\r\n=9Fe  \r\nline two =\r\nwith more\t \r\n=4=\r\n1 and =3D and =ZZ and =\r\n'), true],
  ['quoted-printable: encoded CRLF, LF and lone CR', message('Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n', 'a=0D=0Ab=0Ac=0Dd\r\n'), true],
  ['quoted-printable, upper-case name, no charset', message('Content-Transfer-Encoding:  Quoted-Printable \r\n', 'caf=3D\r\n'), true],
  ['quoted-printable: a run of blanks ends the body', message('Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n', `x${' '.repeat(1000)}`), true],
  ['quoted-printable decoding to invalid UTF-8', message('Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n', 'caf=E9\r\n'), false],
  ['quoted-printable declared US-ASCII, decoding to 8-bit bytes', message('Content-Type: text/plain; charset=us-ascii\r\nContent-Transfer-Encoding: quoted-printable\r\n', 'caf=C3=A9\r\n'), false],
  ['quoted-printable decoding to nothing', message('Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n', '=\r\n'), false],
  ['quoted-printable with a bare LF', message('Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n', 'a\nb\r\n'), false],
  ['quoted-printable, format=flowed', message('Content-Type: text/plain; charset=utf-8; format=flowed\r\nContent-Transfer-Encoding: quoted-printable\r\n', 'soft \r\nbreak\r\n'), false],
  ['quoted-printable HTML', message('Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n', '<p>caf=C3=A9</p>\r\n'), false],
  ['base64', message('Content-Transfer-Encoding: base64\r\n', 'SGVsbG8=\r\n'), false],
  ['HTML', message('Content-Type: text/html; charset=utf-8\r\n', '<p>Hi</p>\r\n'), false],
  ['multipart', message('Content-Type: multipart/alternative; boundary=b\r\n', '--b\r\n\r\nHi\r\n--b--\r\n'), false],
  ['two Content-Type headers', message('Content-Type: text/plain\r\nContent-Type: text/html\r\n', 'Hi\r\n'), false],
  ['bare LF in the body', message('', 'one\ntwo\r\n'), false],
  ['bare CR in the body', message('', 'one\rtwo\r\n'), false],
  ['encoded words, a group and two To headers', message(
    'Subject: =?UTF-8?B?R3LDvMOfZQ==?= and =?ISO-8859-1?Q?caf=E9?=\r\nTo: Team: "Zoë" <zoe@example.test>, bob@example.test;\r\nTo: =?UTF-8?Q?J=C3=BCrgen?= <j@example.test>\r\nCc: c@example.test\r\nContent-Type: text/plain; charset=UTF-8\r\n',
    'Hi\r\n',
  ), true],
  ['raw 8-bit UTF-8 header', message('Subject: Grüße\r\nContent-Type: text/plain; charset=utf-8\r\n', 'Hi\r\n'), true],
  ['a line of just LF ends the header block early', Buffer.from(`${HEAD}X-A: 1\n\nContent-Type: text/html\r\n\r\nHi\r\n`), false],
]

describe('plain-text bodies read without mailparser', () => {
  it.each(CASES)('%s', async (_what, raw, applies) => {
    expect(plainTextBody(raw) !== null).toBe(applies)
    expect(await expectSameAsMailparser(raw, _what)).toBe(applies)
  })

  it('parses 1,500 random quoted-printable bodies as mailparser alone does', async () => {
    const pieces = ['=', 'A', 'f', '3', 'D', ' ', '\t', '\r', '\n', '\r\n', '=\r\n', '=3D', '=3d', '=C3=A9', '=E9', '=0D=0A', '=0A', '=0D', '= ', '=4', 'é', '🎉', 'x', '.']
    const next = random(20261125)
    let shortcut = 0
    for (let n = 0; n < 1500; n++) {
      let body = ''
      for (let length = 1 + Math.floor(next() * 30); length > 0; length--) body += pieces[Math.floor(next() * pieces.length)]
      const charset = next() < 0.8 ? '; charset=utf-8' : ''
      const raw = message(`Content-Type: text/plain${charset}\r\nContent-Transfer-Encoding: quoted-printable\r\n`, body)
      if (await expectSameAsMailparser(raw, JSON.stringify(body))) shortcut++
    }
    // Bodies with a bare CR or LF, or that decode to invalid UTF-8, are left to mailparser; the rest take the shortcut.
    expect(shortcut).toBeGreaterThan(250)
  })

  const files = realMailFiles().sort()
  it(`parses every message of the real-mail corpus as mailparser alone does (${files.length} messages)`, async () => {
    expect(files.length).toBeGreaterThan(100)
    let shortcut = 0
    for (const file of files) {
      const raw = readFileSync(file)
      if (await expectSameAsMailparser(raw, file)) shortcut++
    }
    expect(shortcut).toBeGreaterThan(0)
  })
})
