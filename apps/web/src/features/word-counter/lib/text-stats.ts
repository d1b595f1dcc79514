import { countSentences } from './sentences'
import { countWords } from './words'

/** Text stats of spec §3/§5: words, characters, paragraphs, sentences, reading and speaking time. */
export interface TextStats {
  words: number
  characters: number
  charactersNoSpaces: number
  paragraphs: number
  sentences: number
  /** Minutes at 200 words a minute, rounded up (spec §5). */
  readingTime: number
  /** Minutes at 150 words a minute, rounded up (spec §5). */
  speakingTime: number
}

export const READING_WORDS_PER_MINUTE = 200
export const SPEAKING_WORDS_PER_MINUTE = 150

/**
 * Windows (CRLF) and old Mac (CR) line ends count as one line break, so the same text pasted from
 * any system gives the same figures.
 */
export function normaliseNewlines(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text
}

/** Characters as a person counts them: one per code point (an emoji is one), line ends as one. */
export function countCharacters(text: string): number {
  const t = normaliseNewlines(text)
  let surrogatePairs = 0
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) surrogatePairs++
  }
  return t.length - surrogatePairs
}

export function countCharactersNoSpaces(text: string): number {
  return countCharacters(text.replace(/\s+/g, ''))
}

/** Paragraphs are separated by blank lines (spec §5); several blank lines are still one break. */
export function countParagraphs(text: string): number {
  return normaliseNewlines(text).split(/\n[^\S\n]*\n\s*/).filter((p) => p.trim() !== '').length
}

export function textStats(text: string): TextStats {
  const words = countWords(text)
  return {
    words,
    characters: countCharacters(text),
    charactersNoSpaces: countCharactersNoSpaces(text),
    paragraphs: countParagraphs(text),
    sentences: countSentences(text),
    readingTime: Math.ceil(words / READING_WORDS_PER_MINUTE),
    speakingTime: Math.ceil(words / SPEAKING_WORDS_PER_MINUTE),
  }
}
