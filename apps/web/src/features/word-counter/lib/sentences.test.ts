import { describe, expect, it } from 'vitest'
import { countSentences } from './sentences'

describe('countSentences: sentences end at . ! ? (spec §5), where a sentence can end', () => {
  it('does not end a sentence at a decimal point, an e-mail address or a domain', () => {
    expect(countSentences('Pi is 3.14 today.')).toBe(1)
    expect(countSentences('Write to jane.doe@example.com. She answers fast!')).toBe(2)
    expect(countSentences('See example.com/help or call 0.5 seconds later?')).toBe(1)
  })

  it('does not end a sentence at English titles, abbreviations and initials', () => {
    expect(countSentences('Dr. Smith met Mr. Jones at 5 p.m. yesterday.')).toBe(1)
    expect(countSentences('Bring fruit, e.g. apples, i.e. something fresh.')).toBe(1)
    expect(countSentences('J. R. R. Tolkien wrote it. It is long.')).toBe(2)
    expect(countSentences('Mrs. Brown vs. Prof. Green (cf. fig. 2) won.')).toBe(1)
  })

  it('ends a sentence at an abbreviation that a capital letter follows', () => {
    expect(countSentences('We left at 5 p.m. Then it rained.')).toBe(2)
    expect(countSentences('Apples, pears, etc. are fruit. Buy some etc. Later more.')).toBe(3)
  })

  it('handles German, French and Spanish abbreviations', () => {
    expect(countSentences('Das ist z. B. ein Test, d.h. nur ein Beispiel. Herr Dr. Müller kommt um 3.30 Uhr.')).toBe(2)
    expect(countSentences('Wir kaufen Obst, Gemüse usw. und gehen heim. Dann essen wir.')).toBe(2)
    expect(countSentences('Mme. Dupont arrive. Elle a 2,5 kilos de pommes !')).toBe(2)
    expect(countSentences('¿Vienes hoy? La Sra. García dice que sí.')).toBe(2)
  })

  it('ends Chinese and Japanese sentences at their full-width marks, with no space after them', () => {
    expect(countSentences('我们今天去北京。天气很好！你去吗？')).toBe(3)
    expect(countSentences('私は東京に住んでいます。毎日電車に乗ります。')).toBe(2)
  })

  it('counts a Thai text without marks as one sentence', () => {
    expect(countSentences('ภาษาไทยเป็นภาษาที่สวยงาม')).toBe(1)
  })

  it('keeps the rules of runs, quotes and a last sentence without its mark', () => {
    expect(countSentences('"Stop." She did. (Really!) Then—nothing')).toBe(4)
    expect(countSentences('Wait... What?! Really.')).toBe(3)
    expect(countSentences('...')).toBe(0)
  })

  it('counts long tokens and long runs of marks and abbreviations (one pass: each word is looked back at once)', () => {
    expect(countSentences('a'.repeat(200_000) + '. b')).toBe(2)
    expect(countSentences('1.'.repeat(100_000))).toBe(1)
    expect(countSentences('Dr. '.repeat(50_000) + 'Who.')).toBe(1)
  })
})
