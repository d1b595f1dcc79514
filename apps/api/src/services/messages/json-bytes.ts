import { randomUUID } from 'node:crypto'
import { isUtf8 } from 'node:buffer'

/**
 * JSON string values made from UTF-8 bytes, never from a JavaScript string. A message view's text and HTML are up to
 * 256 K characters each: as strings they are allocated by the database driver, escaped by the serializer, measured and
 * encoded again on the way out (about 7–12 ms a first read); as bytes they are read once and copied twice.
 */

/** The short escapes JSON.stringify writes; any other byte below 0x20 becomes \u00XX. */
const SHORT_ESCAPES: Record<number, number> = { 0x08: 0x62, 0x09: 0x74, 0x0a: 0x6e, 0x0c: 0x66, 0x0d: 0x72, 0x22: 0x22, 0x5c: 0x5c }
const HEX = Buffer.from('0123456789abcdef')

/** Bytes each byte grows by when escaped: 0 (as it is), 1 (`\n`, `\"`, `\\` …) or 5 (`\u001f`). */
const GROWTH = new Uint8Array(256)
for (let b = 0; b < 0x20; b++) GROWTH[b] = b in SHORT_ESCAPES ? 1 : 5
GROWTH[0x22] = 1
GROWTH[0x5c] = 1

/**
 * The JSON string (with its quotes) of valid UTF-8 `utf8`, byte for byte what JSON.stringify gives for the decoded
 * text: `"`, `\` and control characters escaped, everything else (U+2028, `</script>`, 4-byte characters) as it is.
 * Valid UTF-8 holds no lone surrogate, the one other thing JSON.stringify escapes; callers check validity (isUtf8).
 */
export function jsonStringBytes(utf8: Uint8Array): Buffer {
  const n = utf8.length
  let growth = 0
  for (let i = 0; i < n; i++) growth += GROWTH[utf8[i]!]!
  const out = Buffer.allocUnsafe(n + growth + 2)
  out[0] = 0x22
  if (growth === 0) {
    out.set(utf8, 1)
  } else {
    let j = 1
    let run = 0
    for (let i = 0; i < n; i++) {
      const b = utf8[i]!
      if (GROWTH[b] === 0) continue
      // Long runs of bytes that need nothing are copied at once; short ones (text between line ends) byte by byte,
      // cheaper than a subarray each.
      if (i - run > 64) {
        out.set(utf8.subarray(run, i), j)
        j += i - run
      } else {
        for (let k = run; k < i; k++) out[j++] = utf8[k]!
      }
      run = i + 1
      out[j++] = 0x5c
      const short = SHORT_ESCAPES[b]
      if (short !== undefined) {
        out[j++] = short
      } else {
        out[j++] = 0x75 // u00XX
        out[j++] = 0x30
        out[j++] = 0x30
        out[j++] = HEX[b >> 4]!
        out[j++] = HEX[b & 15]!
      }
    }
    if (n > run) out.set(utf8.subarray(run, n), j)
  }
  out[out.length - 1] = 0x22
  return out
}

/**
 * Whether UTF-8 text is empty or only whitespace as String.prototype.trim sees it. ASCII is decided here; text whose
 * first non-blank byte starts a multi-byte character (a Unicode space, or any letter) is decoded to decide.
 */
export function isBlankUtf8(utf8: Buffer): boolean {
  for (let i = 0; i < utf8.length; i++) {
    const b = utf8[i]!
    if (b === 0x20 || (b >= 0x09 && b <= 0x0d)) continue
    if (b < 0x80) return false
    return utf8.toString('utf8', i).trim() === ''
  }
  return true
}

/** The UTF-8 of U+E000, which marks attachment references in stored sanitized HTML (see resolveAttachmentRefs). */
const REF_MARK = Buffer.from('\uE000')

/** resolveAttachmentRefs on bytes: each `MARK position MARK` becomes the attachment's URL. */
export function resolveAttachmentRefBytes(safeHtml: Buffer, urlFor: (position: number) => string): Buffer {
  if (safeHtml.indexOf(REF_MARK) === -1) return safeHtml
  const parts: Buffer[] = []
  let from = 0
  let odd = false
  for (;;) {
    const at = safeHtml.indexOf(REF_MARK, from)
    const part = safeHtml.subarray(from, at === -1 ? safeHtml.length : at)
    parts.push(odd ? Buffer.from(urlFor(Number(part.toString('utf8')))) : part)
    if (at === -1) break
    from = at + REF_MARK.length
    odd = !odd
  }
  return Buffer.concat(parts)
}

const MARK_NONCE = randomUUID()

/** A string value no mail can hold (a fresh random name per process), standing for bytes spliced in after serializing. */
export function spliceMark(field: string): string {
  return `tempbox-splice-${field}-${MARK_NONCE}`
}

/**
 * `serialized` (an object's JSON) with the string value of each `"field":"mark"` replaced by the JSON string of its
 * bytes; null when some bytes are not valid UTF-8 (the caller then serializes the decoded text instead).
 */
export function spliceJsonStrings(serialized: string, values: { field: string; mark: string; utf8: Buffer }[]): Buffer | null {
  if (!values.every((v) => isUtf8(v.utf8))) return null
  const places = values
    .map((v) => {
      const key = `"${v.field}":`
      const at = serialized.indexOf(`${key}"${v.mark}"`)
      if (at === -1) throw new Error(`the serialized view has no ${v.field} to splice`)
      return { start: at + key.length, end: at + key.length + v.mark.length + 2, utf8: v.utf8 }
    })
    .sort((a, b) => a.start - b.start)
  const pieces: Buffer[] = []
  let from = 0
  for (const place of places) {
    pieces.push(Buffer.from(serialized.slice(from, place.start)), jsonStringBytes(place.utf8))
    from = place.end
  }
  pieces.push(Buffer.from(serialized.slice(from)))
  return Buffer.concat(pieces)
}
