import { describe, expect, it } from 'vitest'
import { countSyllables, MIN_WORDS_TO_SCORE, readability } from './readability'

/** Dictionary syllable counts (Merriam-Webster) of everyday English words. */
const KNOWN: Record<string, number> = {
  the: 1, cat: 1, dog: 1, make: 1, makes: 1, cake: 1, jumped: 1, time: 1, free: 1, world: 1, through: 1, strength: 1, queue: 1, you: 1,
  table: 2, water: 2, happy: 2, wanted: 2, boxes: 2, people: 2, little: 2, apple: 2, football: 2, yellow: 2, because: 2, answer: 2, many: 2,
  simple: 2, music: 2, open: 2, children: 2, reading: 2, garden: 2, ruin: 2,
  beautiful: 3, example: 3, family: 3, important: 3, computer: 3, together: 3, banana: 3, created: 3, another: 3, piano: 3, animal: 3, idea: 3,
  university: 5, readability: 5, education: 4, information: 4, necessary: 4, ability: 4, everybody: 4, impossible: 4,
}

describe('countSyllables', () => {
  it('counts short and simple words exactly', () => {
    for (const w of ['the', 'cat', 'make', 'jumped', 'free']) expect(countSyllables(w)).toBe(1)
    for (const w of ['table', 'water', 'wanted', 'boxes', 'little']) expect(countSyllables(w)).toBe(2)
    expect(countSyllables('beautiful')).toBe(3)
    expect(countSyllables('university')).toBe(5)
    expect(countSyllables('')).toBe(0)
    expect(countSyllables('123')).toBe(0)
    expect(countSyllables('Hello,')).toBe(2)
  })

  it('agrees with the dictionary on at least 90% of a known word list', () => {
    const entries = Object.entries(KNOWN)
    const wrong = entries.filter(([w, n]) => countSyllables(w) !== n).map(([w, n]) => `${w}: ${countSyllables(w)} (dictionary ${n})`)
    expect(wrong.length / entries.length, wrong.join(', ')).toBeLessThanOrEqual(0.1)
  })
})

/** A text of `n` copies of one sentence. */
const repeat = (sentence: string, n: number) => Array.from({ length: n }, () => sentence).join(' ')

describe('readability', () => {
  it('keeps Flesch Reading Ease within 0–100 and the grade at 0 or more', () => {
    // Unclamped: 206.835 - 1.015 × 3 - 84.6 × 1 ≈ 119 and grade ≈ -2.6.
    const easy = readability(repeat('The cat sat.', 12))
    expect(easy.fleschReadingEase).toBe(100)
    expect(easy.fleschKincaidGrade).toBe(0)
    expect(easy.unscored).toBeNull()
    // Unclamped far below 0: one 40-word sentence of long words.
    const hard = readability(repeat('incomprehensibility', 40))
    expect(hard.fleschReadingEase).toBe(0)
    expect(hard.fleschKincaidGrade!).toBeGreaterThan(0)
  })

  it('computes Flesch Reading Ease and Flesch–Kincaid grade by their formulas', () => {
    // 10 words a sentence, 4 sentences.
    const text = repeat('The children were reading a simple story in the garden.', 4)
    const r = readability(text)
    const spw = r.syllables / 40
    expect(r.fleschReadingEase).toBeCloseTo(206.835 - 1.015 * 10 - 84.6 * spw, 1)
    expect(r.fleschKincaidGrade).toBeCloseTo(0.39 * 10 + 11.8 * spw - 15.59, 1)
    expect(r.fleschReadingEase!).toBeGreaterThan(0)
    expect(r.fleschReadingEase!).toBeLessThan(100)
  })

  it('gives no score to a text too short to score, but still its averages and words', () => {
    const r = readability('The cat sat on the mat. The dog ran to the cat.')
    expect(r).toMatchObject({ fleschReadingEase: null, fleschKincaidGrade: null, unscored: 'tooShort', averageSentenceLength: 6 })
    expect(r.topWords[0]).toEqual({ word: 'cat', count: 2 })
    expect(readability(repeat('word', MIN_WORDS_TO_SCORE - 1)).unscored).toBe('tooShort')
    expect(readability(repeat('word', MIN_WORDS_TO_SCORE)).unscored).toBeNull()
  })

  it('scores German and French text, which are written in the Latin alphabet', () => {
    const de = readability(repeat('Der Hund läuft schnell über die grüne Wiese.', 5))
    expect(de.unscored).toBeNull()
    expect(de.fleschReadingEase).toBeGreaterThanOrEqual(0)
    expect(de.fleschReadingEase).toBeLessThanOrEqual(100)
    expect(readability(repeat("C'est l'été à Paris.", 8)).unscored).toBeNull()
  })

  it('gives no score to Chinese, Japanese, Thai or Russian text, and splits their words', () => {
    const zh = readability(repeat('我们今天去北京大学。', 10))
    expect(zh.unscored).toBe('script')
    expect(zh.fleschReadingEase).toBeNull()
    expect(zh.topWords.map((w) => w.word)).toContain('北京')
    expect(readability(repeat('私は東京に住んでいます。', 10)).unscored).toBe('script')
    const th = readability(repeat('ภาษาไทยเป็นภาษาที่สวยงาม', 10))
    expect(th.unscored).toBe('script')
    expect(th.topWords[0]).toEqual({ word: 'ภาษา', count: 20 })
    expect(readability(repeat('Быстрая коричневая лиса прыгает.', 10)).unscored).toBe('script')
  })

  it('gives averages of words per sentence and letters per word', () => {
    const r = readability('Go now. Run fast!')
    expect(r.averageSentenceLength).toBe(2)
    expect(r.averageWordLength).toBe(3)
  })

  it('lists the most frequent words without stop words, most frequent first', () => {
    const r = readability('The river and the river bank. A river is wet; the bank is not. Banks, rivers, river!')
    expect(r.topWords[0]).toEqual({ word: 'river', count: 4 })
    expect(r.topWords[1]).toEqual({ word: 'bank', count: 2 })
    expect(r.topWords.map((w) => w.word)).not.toContain('the')
    expect(r.topWords.map((w) => w.word)).not.toContain('is')
  })

  it('has no scores for text without words', () => {
    expect(readability('   ...  ')).toMatchObject({ fleschReadingEase: null, fleschKincaidGrade: null, unscored: 'empty', topWords: [], averageWordLength: 0 })
  })
})
