import { isUtf8 } from 'node:buffer'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { jsonStringBytes, spliceJsonStrings, spliceMark } from '../src/services/messages/json-bytes.js'
import { realMailFiles } from '../../../tests/support/real-mail-corpus.js'
import { random as seededRandom } from '../../../tests/support/seeded-random.js'

/** What a reader gets for `text` when the view is serialized as strings. */
const reference = (text: string) => Buffer.from(JSON.stringify(text))

/** Each real message's whole source as text (UTF-8 where it is, else its bytes as Latin-1): every kind of byte mail carries. */
const corpusTexts = realMailFiles().map((file) => {
  const raw = readFileSync(file)
  return { file, text: raw.toString(isUtf8(raw) ? 'utf8' : 'latin1') }
})

describe('JSON strings made from UTF-8 bytes', () => {
  it(`are byte for byte JSON.stringify's for every message of the real-mail corpus (${corpusTexts.length} sources)`, () => {
    expect(corpusTexts.length).toBeGreaterThan(150)
    for (const { file, text } of corpusTexts) {
      expect(jsonStringBytes(Buffer.from(text)).equals(reference(text)), file).toBe(true)
    }
  })

  it("are byte for byte JSON.stringify's for random text of controls, quotes, separators and characters of every width", () => {
    const random = seededRandom(20261125)
    const pieces = ['"', '\\', '\n', '\r\n', '\t', '\u0000', '\u001f', '\u007f', '\u2028', '\u2029', '</script>', 'é', '€', '😀', '\ud83d\ude00', 'a', ' ', '\\u0041']
    for (let n = 0; n < 2_000; n++) {
      let text = ''
      const length = Math.floor(random() * 200)
      for (let i = 0; i < length; i++) {
        text += random() < 0.5 ? pieces[Math.floor(random() * pieces.length)] : String.fromCodePoint(Math.floor(random() * 0xd7ff))
      }
      expect(jsonStringBytes(Buffer.from(text)).equals(reference(text)), JSON.stringify(text)).toBe(true)
    }
  })

  it('are spliced into a serialized view in place of their marks, giving the view serialized with the texts', () => {
    const [first, second] = [corpusTexts[0]!.text, corpusTexts[corpusTexts.length - 1]!.text]
    const view = (content: string, html: string) => ({ id: '7', subject: 'A "quoted" \u2028 subject', content, attachments: [{ filename: 'a.txt' }], html, read: false })
    const marked = JSON.stringify(view(spliceMark('content'), spliceMark('html')))
    const spliced = spliceJsonStrings(marked, [
      { field: 'html', mark: spliceMark('html'), utf8: Buffer.from(second) },
      { field: 'content', mark: spliceMark('content'), utf8: Buffer.from(first) },
    ])
    expect(spliced?.equals(Buffer.from(JSON.stringify(view(first, second))))).toBe(true)
  })

  it('are not made from bytes that are not UTF-8: the caller serializes the decoded text instead', () => {
    const marked = JSON.stringify({ content: spliceMark('content') })
    expect(spliceJsonStrings(marked, [{ field: 'content', mark: spliceMark('content'), utf8: Buffer.from([0x41, 0xff, 0x42]) }])).toBeNull()
  })
})
