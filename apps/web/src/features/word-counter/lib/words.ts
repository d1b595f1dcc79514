/**
 * Words as people count them. Spec §5 splits words on whitespace; Chinese, Japanese, Thai, Lao, Khmer and Myanmar
 * write without spaces between words, so a whitespace-free run holding their letters is split by the browser's
 * dictionary-based `Intl.Segmenter` instead. Everything is one pass over the text (the segmenter is linear too).
 */

/** Letters of the scripts written without spaces between words. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u

let segmenter: Intl.Segmenter | null | undefined
/** One segmenter for all calls (building one loads ICU's dictionaries); null where the browser has none. */
function wordSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'word' }) : null
  return segmenter
}

export function isSpace(c: number): boolean {
  // ASCII whitespace first (the common case), then the Unicode spaces \s also matches.
  if (c === 32 || (c >= 9 && c <= 13)) return true
  if (c < 128) return false
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
}

/** Whether this UTF-16 unit starts a letter of a script written without spaces (all such letters used here are in the BMP or start a pair). */
function isUnspacedAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i)
  // Below Thai (U+0E00) there is nothing to find: the common case costs one comparison.
  if (c < 0x0e00) return false
  return UNSPACED_SCRIPT.test(String.fromCodePoint(text.codePointAt(i)!))
}

/**
 * Calls `onRun` for each whitespace-separated run, with whether it holds a letter of an unspaced script. Shared by
 * the count and the word list so both split alike.
 */
function eachRun(text: string, onRun: (start: number, end: number, unspaced: boolean) => void): void {
  let start = -1
  let unspaced = false
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isSpace(text.charCodeAt(i))
    if (space) {
      if (start >= 0) onRun(start, i, unspaced)
      start = -1
      unspaced = false
    } else {
      if (start < 0) start = i
      if (!unspaced && isUnspacedAt(text, i)) unspaced = true
    }
  }
}

/**
 * Runs longer than this are segmented piece by piece: segmenting one long string takes time growing faster than its
 * length (60,000 Chinese characters: 2 s as one string, 0.15 s in pieces), and a run can be a whole pasted book.
 */
const SEGMENT_PIECE = 256
/** Not a letter, mark or number: a safe place to cut a run without cutting a word (。，、「 and the like). */
const BREAKABLE = /[^\p{L}\p{M}\p{N}]/u

/** Where to end the piece starting at `start`: after the last breakable character of its second half, else at its end. */
function pieceEnd(run: string, start: number): number {
  const end = start + SEGMENT_PIECE
  if (end >= run.length) return run.length
  for (let i = end; i > start + SEGMENT_PIECE / 2; i--) if (BREAKABLE.test(run[i - 1]!)) return i
  // 128 letters without a mark between them: cut there (a word may be split, once in hundreds of characters).
  return (run.charCodeAt(end - 1) & 0xfc00) === 0xd800 ? end + 1 : end
}

/** The word-like pieces of a run the segmenter splits; the whole run when the browser cannot split it. */
function segmentRun(run: string): string[] {
  const seg = wordSegmenter()
  if (!seg) return [run]
  const words: string[] = []
  for (let start = 0; start < run.length; ) {
    const end = pieceEnd(run, start)
    for (const piece of seg.segment(run.slice(start, end))) if (piece.isWordLike) words.push(piece.segment)
    start = end
  }
  return words
}

/** Words are runs of non-whitespace (spec §5); a run in Chinese, Japanese, Thai… counts the words it holds. */
export function countWords(text: string): number {
  let count = 0
  eachRun(text, (start, end, unspaced) => {
    // A run such as "——" or "。" between spaces still counts, as spec §5 counts any run.
    count += unspaced ? Math.max(1, segmentRun(text.slice(start, end)).length) : 1
  })
  return count
}

/** Letters and numbers of a word (apostrophes and hyphens inside kept): "don't", "e-mail", "42". */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu

/** The words of a text for readability and the most frequent words, punctuation left out. */
export function listWords(text: string): string[] {
  const words: string[] = []
  eachRun(text, (start, end, unspaced) => {
    const run = text.slice(start, end)
    for (const piece of unspaced ? segmentRun(run) : [run]) {
      for (const match of piece.matchAll(WORD)) words.push(match[0])
    }
  })
  return words
}
