/**
 * The list's one-line preview: the first `chars` characters (code points) of the content, runs of whitespace made one
 * space, with none at either end. Reads at most `chars * 8` code units of the content, whatever its length.
 *
 * One pass that stops once the preview is full: replacing whitespace over the prefix and splitting it into an array
 * of code points cost more than the rest of a text mail's derivation together.
 */
export function previewOf(content: string, chars: number): string {
  const limit = Math.min(content.length, chars * 8)
  let preview = ''
  let points = 0
  let i = 0
  while (i < limit && isSpace(content.charCodeAt(i))) i++
  while (i < limit && points < chars) {
    if (isSpace(content.charCodeAt(i))) {
      while (i < limit && isSpace(content.charCodeAt(i))) i++
      // Whitespace at the end of what is read is dropped, not made a space.
      if (i >= limit) break
      preview += ' '
      points++
      continue
    }
    const start = i
    while (i < limit && points < chars && !isSpace(content.charCodeAt(i))) {
      i += isSurrogatePair(content, i, limit) ? 2 : 1
      points++
    }
    preview += content.slice(start, i)
  }
  // A preview cut right after a space ends with it.
  return preview.endsWith(' ') ? preview.slice(0, -1) : preview
}

/** JavaScript's whitespace (what `\s` and `trim` take): ASCII's, NBSP, the Unicode space separators, LS, PS and BOM. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d)
  if (c < 0xa0) return false
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
}

/** A high surrogate followed, within what is read, by a low one: one code point in two code units. */
function isSurrogatePair(s: string, at: number, limit: number): boolean {
  const high = s.charCodeAt(at)
  return high >= 0xd800 && high <= 0xdbff && at + 1 < limit && (s.charCodeAt(at + 1) & 0xfc00) === 0xdc00
}
