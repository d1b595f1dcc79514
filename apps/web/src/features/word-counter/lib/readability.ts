import { countSentences } from './text-stats'
import { STOP_WORDS } from './stop-words'

export interface Readability {
  /** Flesch Reading Ease: higher is easier (90–100 very easy, below 30 very hard). Null without words. */
  fleschReadingEase: number | null
  /** Flesch–Kincaid grade level (US school years). Null without words. */
  fleschKincaidGrade: number | null
  /** Words per sentence. */
  averageSentenceLength: number
  /** Letters per word. */
  averageWordLength: number
  syllables: number
  /** Most frequent words, stop words left out, most frequent first. */
  topWords: { word: string; count: number }[]
}

const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu

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
  const words = text.match(WORD) ?? []
  const sentences = Math.max(1, countSentences(text))
  let syllables = 0
  let letters = 0
  const counts = new Map<string, number>()
  for (const w of words) {
    syllables += countSyllables(w)
    letters += w.replace(/['’-]/g, '').length
    const key = w.toLowerCase().replace(/’/g, "'")
    if (key.length < 2 || STOP_WORDS.has(key) || /^\d+$/.test(key)) continue
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const n = words.length
  if (n === 0) {
    return { fleschReadingEase: null, fleschKincaidGrade: null, averageSentenceLength: 0, averageWordLength: 0, syllables: 0, topWords: [] }
  }
  const wps = n / sentences
  const spw = syllables / n
  return {
    fleschReadingEase: round1(206.835 - 1.015 * wps - 84.6 * spw),
    fleschKincaidGrade: round1(0.39 * wps + 11.8 * spw - 15.59),
    averageSentenceLength: round1(wps),
    averageWordLength: round1(letters / n),
    syllables,
    topWords: [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 10)
      .map(([word, count]) => ({ word, count })),
  }
}

function round1(x: number): number {
  return Math.round(x * 10) / 10
}
