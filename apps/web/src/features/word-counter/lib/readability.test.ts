import { describe, expect, it } from 'vitest'
import { countSyllables, readability } from './readability'

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

describe('readability', () => {
  it('scores a very simple text as very easy', () => {
    const r = readability('The cat sat on the mat. The dog ran to the cat.')
    expect(r.averageSentenceLength).toBe(6)
    expect(r.fleschReadingEase!).toBeGreaterThan(100)
    expect(r.fleschKincaidGrade!).toBeLessThan(1)
  })

  it('computes Flesch Reading Ease and Flesch–Kincaid grade by their formulas', () => {
    // 10 words, 1 sentence, 15 syllables.
    const text = 'Education is necessary for everybody in the family today.'
    const r = readability(text)
    const syl = r.syllables
    expect(r.fleschReadingEase).toBeCloseTo(206.835 - 1.015 * 9 - 84.6 * (syl / 9), 1)
    expect(r.fleschKincaidGrade).toBeCloseTo(0.39 * 9 + 11.8 * (syl / 9) - 15.59, 1)
    expect(r.fleschReadingEase!).toBeLessThan(60)
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
    expect(readability('   ...  ')).toMatchObject({ fleschReadingEase: null, fleschKincaidGrade: null, topWords: [], averageWordLength: 0 })
  })
})
