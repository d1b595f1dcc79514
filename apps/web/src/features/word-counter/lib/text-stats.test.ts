import { describe, expect, it } from 'vitest'
import { countSentences } from './sentences'
import { countCharacters, countCharactersNoSpaces, countParagraphs, textStats } from './text-stats'
import { countWords } from './words'

describe('textStats (spec §5)', () => {
  it('gives zero for empty text', () => {
    expect(textStats('')).toEqual({ words: 0, characters: 0, charactersNoSpaces: 0, paragraphs: 0, sentences: 0, readingTime: 0, speakingTime: 0 })
  })

  it('gives zero words, paragraphs and sentences for only whitespace, but counts its characters', () => {
    expect(textStats('   \n\t \n  ')).toMatchObject({ words: 0, paragraphs: 0, sentences: 0, charactersNoSpaces: 0, readingTime: 0, speakingTime: 0 })
    expect(countCharacters('  \t ')).toBe(4)
  })

  it('splits words on any whitespace', () => {
    expect(countWords('Hello world')).toBe(2)
    expect(countWords('  Hello   world \n again\tand\u00a0again  ')).toBe(5)
    expect(countWords("don't stop-me now, 42 times!")).toBe(5)
  })

  it('counts characters with and without spaces', () => {
    expect(countCharacters('Hello world')).toBe(11)
    expect(countCharactersNoSpaces('Hello world')).toBe(10)
    expect(countCharactersNoSpaces(' a\tb\nc ')).toBe(3)
    // One emoji is one character; CJK characters count one each.
    expect(countCharacters('hi 👋')).toBe(4)
    expect(countCharacters('你好')).toBe(2)
  })

  it('counts a CRLF line end as one character and splits CRLF paragraphs', () => {
    const text = 'First line.\r\nStill first.\r\n\r\nSecond paragraph.'
    expect(countCharacters(text)).toBe(countCharacters(text.replace(/\r\n/g, '\n')))
    expect(countParagraphs(text)).toBe(2)
    expect(textStats(text)).toMatchObject({ words: 6, sentences: 3, paragraphs: 2 })
  })

  it('splits paragraphs on blank lines; several blank lines are one break; a single newline is not', () => {
    expect(countParagraphs('One\ntwo')).toBe(1)
    expect(countParagraphs('One\n\nTwo')).toBe(2)
    expect(countParagraphs('One\n\n\n\n\nTwo\n \n\t\nThree')).toBe(3)
    expect(countParagraphs('\n\n  Leading and trailing  \n\n\n')).toBe(1)
  })

  it('counts words and sentences of Chinese, Japanese and Thai text', () => {
    expect(textStats('我们今天去北京大学。天气很好！')).toMatchObject({ words: 7, sentences: 2, characters: 15 })
    expect(textStats('私は東京に住んでいます。')).toMatchObject({ sentences: 1 })
    expect(textStats('ภาษาไทยเป็นภาษาที่สวยงาม')).toMatchObject({ words: 6, sentences: 1, readingTime: 1 })
  })

  it('splits sentences on . ! ?', () => {
    expect(countSentences('One. Two! Three?')).toBe(3)
    expect(countSentences('No full stop at the end')).toBe(1)
    expect(countSentences('Trailing punctuation!!!')).toBe(1)
    expect(countSentences('Wait... What?! Really.')).toBe(3)
    expect(countSentences('...')).toBe(0)
    expect(countSentences(' . ! ? ')).toBe(0)
  })

  it('rounds reading (200 wpm) and speaking (150 wpm) time up', () => {
    const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ')
    expect(textStats(words(1))).toMatchObject({ readingTime: 1, speakingTime: 1 })
    expect(textStats(words(150))).toMatchObject({ readingTime: 1, speakingTime: 1 })
    expect(textStats(words(151))).toMatchObject({ readingTime: 1, speakingTime: 2 })
    expect(textStats(words(200))).toMatchObject({ readingTime: 1, speakingTime: 2 })
    expect(textStats(words(201))).toMatchObject({ readingTime: 2, speakingTime: 2 })
  })
})
