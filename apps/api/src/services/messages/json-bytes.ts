import { randomUUID } from 'node:crypto'
import { isUtf8 } from 'node:buffer'

/**
 * JSON string values made from UTF-8 bytes, never from a JavaScript string. A message view's text and HTML are up to
 * 256 K characters each: as strings they are allocated by the database driver, escaped by the serializer, measured and
 * encoded again on the way out (about 7–12 ms a first read); as bytes they are read once and copied twice.
 */

/**
 * The JSON string (with its quotes) of valid UTF-8 `utf8`, byte for byte what JSON.stringify gives for the decoded
 * text, because it is that: decoded, stringified and encoded natively. A byte loop of our own did the same escaping,
 * but a message's first read rarely found it optimized: profiled over first reads of 256 K-character views it was the
 * largest single cost (43 of 257 ms). Valid UTF-8 holds no lone surrogate, the one thing that could decode differently;
 * callers check validity (isUtf8).
 */
export function jsonStringBytes(utf8: Uint8Array): Buffer {
  return Buffer.from(JSON.stringify(Buffer.from(utf8.buffer, utf8.byteOffset, utf8.byteLength).toString('utf8')))
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
