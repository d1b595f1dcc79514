import { countSentences } from './sentences'
import { STOP_WORDS } from './stop-words'
import { listWords } from './words'

/** Why a text has no reading-ease scores: no words, too few to score, or not in the Latin alphabet. */
export type UnscoredReason = 'empty' | 'tooShort' | 'script'

export interface Readability {
  /** Flesch Reading Ease, 0–100: higher is easier (90–100 very easy, below 30 very hard). Null when `unscored`. */
  fleschReadingEase: number | null
  /** Flesch–Kincaid grade level (US school years), 0 or more. Null when `unscored`. */
  fleschKincaidGrade: number | null
  /** Why the scores are null; null when there are scores. */
  unscored: UnscoredReason | null
  /** Words per sentence. */
  averageSentenceLength: number
  /** Letters per word. */
  averageWordLength: number
  syllables: number
  /** Most frequent words, stop words left out, most frequent first. */
  topWords: { word: string; count: number }[]
}

/**
 * Fewer words give a score that swings with every word (one long word turns "easy" into "hard"); the formulas were
 * fitted on passages of 100 words, and tools agree a text needs a few sentences' worth before a score means much.
 */
export const MIN_WORDS_TO_SCORE = 30
/** Latin letters must be at least this share of the letters: the formulas count English syllables by spelling. */
const MIN_LATIN_SHARE = 0.5
const LATIN = /\p{Script=Latin}/gu
const LETTERS = /\p{L}/gu

/**
 * English syllables by rule: vowel groups, minus a silent final e / -es / -ed, plus a few common
 * exceptions. Dictionary-exact for most everyday words; the figures built on it are estimates anyway.
 */
export function countSyllables(rawWord: string): number {
  let word = rawWord.toLowerCase().replace(/[^a-z]/g, '')
  if (!word) return 0
  if (word.length <= 3) return 1
  // Silent endings: "make", "makes", "jumped" — but not "table", "boxes", "wanted", "free".
  word = word
    .replace(/(?<=[^aeiouy])e[sd]?$/, (m, offset: number, s: string) => {
      const before = s.slice(0, offset)
      if (m === 'ed' && /[td]$/.test(before)) return m
      if (m === 'es' && /(?:[sxz]|ch|sh|[cg])$/.test(before)) return m
      if (m === 'e' && /[^aeiouy]l$/.test(before)) return m
      return ''
    })
    .replace(/^y/, '')
  const groups = word.match(/[aeiouy]+/g)?.length ?? 0
  // Vowel pairs said as two syllables: "create", "piano", "science", "idea", "ruin".
  const hiatus = word.match(/(?:ia|(?<![ts])io(?!u)|iet|eo(?!p)|ua|uo|ea(?=t|l|$)|ui(?=n))/g)?.length ?? 0
  return Math.max(1, groups + hiatus)
}

export function readability(text: string): Readability {
  const words = listWords(text)
  const sentences = Math.max(1, countSentences(text))
  let syllables = 0
  let letters = 0
  let latin = 0
  let allLetters = 0
  const counts = new Map<string, number>()
  for (const w of words) {
    syllables += countSyllables(w)
    letters += w.replace(/['’-]/g, '').length
    latin += w.match(LATIN)?.length ?? 0
    allLetters += w.match(LETTERS)?.length ?? 0
    const key = w.toLowerCase().replace(/’/g, "'")
    if (key.length < 2 || STOP_WORDS.has(key) || /^\d+$/.test(key)) continue
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const n = words.length
  if (n === 0) {
    return { fleschReadingEase: null, fleschKincaidGrade: null, unscored: 'empty', averageSentenceLength: 0, averageWordLength: 0, syllables: 0, topWords: [] }
  }
  const wps = n / sentences
  const spw = syllables / n
  const unscored: UnscoredReason | null = latin < allLetters * MIN_LATIN_SHARE ? 'script' : n < MIN_WORDS_TO_SCORE ? 'tooShort' : null
  return {
    // Clamped: beyond 0–100 (or under grade 0) the formulas give numbers no scale gives a meaning to.
    fleschReadingEase: unscored ? null : round1(clamp(206.835 - 1.015 * wps - 84.6 * spw, 0, 100)),
    fleschKincaidGrade: unscored ? null : round1(Math.max(0, 0.39 * wps + 11.8 * spw - 15.59)),
    unscored,
    averageSentenceLength: round1(wps),
    averageWordLength: round1(letters / n),
    syllables,
    topWords: [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 10)
      .map(([word, count]) => ({ word, count })),
  }
}

function clamp(x: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, x))
}

function round1(x: number): number {
  return Math.round(x * 10) / 10
}
