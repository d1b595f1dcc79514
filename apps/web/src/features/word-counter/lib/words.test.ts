import { describe, expect, it } from 'vitest'
import { countWords, listWords } from './words'

describe('countWords', () => {
  it('splits words on whitespace in languages written with spaces (spec §5)', () => {
    expect(countWords('The quick brown fox jumps.')).toBe(5)
    expect(countWords('Der schnelle braune Fuchs springt über den Hund.')).toBe(8)
    expect(countWords("C'est l'été, à Paris !")).toBe(5)
    expect(countWords('Быстрая коричневая лиса')).toBe(3)
    expect(countWords('مرحبا بالعالم')).toBe(2)
  })

  it('splits Chinese into words with Intl.Segmenter', () => {
    expect(countWords('我们今天去北京大学。')).toBe(5) // 我们 | 今天 | 去 | 北京 | 大学
    expect(countWords('你好 世界')).toBe(2)
  })

  it('counts a long run without spaces (segmented in pieces) as the sum of its sentences', () => {
    expect(countWords('我们今天去北京大学。'.repeat(2_000))).toBe(5 * 2_000)
    expect(countWords('ภาษาไทยเป็นภาษาที่สวยงาม'.repeat(200))).toBeGreaterThanOrEqual(5 * 200)
  })

  it('splits Japanese into words with Intl.Segmenter, Latin words and numbers inside kept whole', () => {
    expect(countWords('東京に住んでいます')).toBeGreaterThanOrEqual(4)
    expect(listWords('iPhone15を買った')[0]).toBe('iPhone15')
  })

  it('splits Thai into words with Intl.Segmenter', () => {
    expect(countWords('ภาษาไทยเป็นภาษาที่สวยงาม')).toBe(6) // ภาษา | ไทย | เป็น | ภาษา | ที่ | สวยงาม
    expect(listWords('ภาษาไทยเป็นภาษาที่สวยงาม')).toContain('สวยงาม')
  })

  it('still counts a run of marks between spaces as a word, as spec §5 splits on whitespace only', () => {
    expect(countWords('yes — no')).toBe(3)
    expect(countWords('好 。')).toBe(2)
  })
})

describe('listWords', () => {
  it('leaves punctuation out and keeps inner apostrophes and hyphens', () => {
    expect(listWords("Don't stop-me now, 42 times!")).toEqual(["Don't", 'stop-me', 'now', '42', 'times'])
  })
})
