/**
 * Sentences end at `.`, `!` or `?` (spec §5), and at their full-width forms in Chinese and Japanese (`。！？`). A
 * mark only ends a sentence where a sentence can end, so these do not:
 * - a full stop inside a token, as in "3.14", "jane.doe@example.com", "example.com" or the first dot of "p.m.";
 * - the full stop of a title or abbreviation ("Dr. Smith", "e.g. this", "z. B."), or of an initial ("J. Smith");
 * - the full stop of "etc.", "a.m.", "p.m." … unless a capital letter follows ("… at 5 p.m. Then we left.").
 * A run such as `...` or `?!` ends one sentence, and a last sentence without its mark still counts.
 * One pass over the text; looking back at a word happens once per mark followed by a space, over that word only.
 */

/** Marks that end a sentence where they stand, even with no space after them (CJK text has none). */
const WIDE_ENDS = new Set(['。', '！', '？', '｡'])
/** Marks that end a sentence when a space, a closing quote or bracket, or the end of the text follows. */
const ENDS = new Set(['.', '!', '?', '…'])
/** Closing quotes and brackets that may stand between the mark and the space: `"Stop." She…`. */
const CLOSERS = new Set(['"', "'", '”', '’', '»', '›', ')', ']', '}', '」', '』', '）'])

/**
 * Words that are followed by a full stop but never end a sentence: titles, and abbreviations that always go on
 * (English, German, French, Spanish, Dutch, Italian, Portuguese…). Lower case, without the final dot.
 */
const NEVER_ENDS = new Set(
  `mr mrs ms mx dr drs prof st mt rev capt lt sgt gov sen rep fr hr frau dres mme mlle mm sra srta sres dña dott sig
  e.g i.e cf vs viz approx ca nr nos fig figs vol vols pp dept tel z z.b d.h u.a bzw vgl ggf evtl inkl bspw p.ex c.-à-d p.ej`
    .split(/\s+/)
    .filter(Boolean),
)
/** Abbreviations that often end a sentence too (and words such as "am"): they end one only when a capital letter follows. */
const ENDS_BEFORE_CAPITAL = new Set('etc a.m p.m am pm inc ltd co corp llc jr sr bros usw u.s u.k u.s.a e.v'.split(' '))

const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u
const UPPER = /\p{Lu}/u

function isSpaceChar(ch: string | undefined): boolean {
  return ch === undefined || /\s/.test(ch)
}

function hasLetterOrNumber(ch: string): boolean {
  const c = ch.charCodeAt(0)
  if (c < 128) return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122)
  return LETTER_OR_NUMBER.test(ch)
}

/** Whether the character starting at `i` (a whole surrogate pair when it is one) is a letter or a number. */
function isContentAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i)
  return hasLetterOrNumber(c >= 0xd800 && c <= 0xdbff ? String.fromCodePoint(text.codePointAt(i)!) : text[i]!)
}

/** The word just before `end` (a full stop): letters, numbers and inner dots/hyphens back to the last space or opening mark. */
function wordBefore(text: string, end: number): string {
  let start = end
  while (start > 0) {
    const ch = text[start - 1]!
    if (isSpaceChar(ch) || ch === '(' || ch === '[' || ch === '"' || ch === '“' || ch === '«' || ch === '‘') break
    start--
  }
  return text.slice(start, end)
}

/** Whether the single full stop at `dot`, followed by a space at `next`, ends its sentence. */
function fullStopEnds(text: string, dot: number, next: number): boolean {
  const word = wordBefore(text, dot)
  const lower = word.toLowerCase()
  if (NEVER_ENDS.has(lower)) return false
  // An initial: "J. R. R. Tolkien", "Franklin D. Roosevelt".
  if ([...word].length === 1 && UPPER.test(word)) return false
  if (ENDS_BEFORE_CAPITAL.has(lower)) {
    let i = next
    while (i < text.length && isSpaceChar(text[i])) i++
    return i < text.length && UPPER.test(String.fromCodePoint(text.codePointAt(i)!))
  }
  return true
}

export function countSentences(text: string): number {
  let count = 0
  let hasContent = false
  let i = 0
  while (i < text.length) {
    const ch = text[i]!
    if (WIDE_ENDS.has(ch)) {
      if (hasContent) count++
      hasContent = false
      i++
      continue
    }
    if (!ENDS.has(ch)) {
      if (!hasContent && isContentAt(text, i)) hasContent = true
      i++
      continue
    }
    // A run of marks: "...", "?!", "!!!".
    const runStart = i
    while (i < text.length && (ENDS.has(text[i]!) || WIDE_ENDS.has(text[i]!))) i++
    let after = i
    while (after < text.length && CLOSERS.has(text[after]!)) after++
    if (!isSpaceChar(text[after])) continue // inside a token: 3.14, example.com, p.m (first dot), "Hey!you"
    const isSingleStop = i - runStart === 1 && ch === '.'
    if (isSingleStop && !fullStopEnds(text, runStart, after)) continue
    if (hasContent) count++
    hasContent = false
  }
  return hasContent ? count + 1 : count
}
