/**
 * The beginning of a long text part as a message view reads it (message_text_head): its first `maxChars + 1`
 * characters (code points, as SQL's substr counts them), so a view can tell a cut text from a whole one. Stored by the
 * writer on SQLite, where the api would otherwise make it at the first read by reading the whole text in its own
 * process (about 8 ms for 9 MB). Null when the text is at most `maxChars` bytes: the view then reads it whole.
 */
export function textHeadOf(text: string | Buffer | null, maxChars: number): string | Buffer | null {
  if (text === null || maxChars <= 0) return null
  if (typeof text === 'string') {
    if (text.length <= maxChars && Buffer.byteLength(text) <= maxChars) return null
    let chars = 0
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i)
      // The second half of a pair is part of the character before it.
      if (unit >= 0xdc00 && unit <= 0xdfff && i > 0 && isHighSurrogate(text.charCodeAt(i - 1))) continue
      if (chars === maxChars + 1) return text.slice(0, i)
      chars++
    }
    return text
  }
  if (text.length <= maxChars) return null
  let chars = 0
  for (let i = 0; i < text.length; i++) {
    if ((text[i]! & 0xc0) === 0x80) continue // a continuation byte
    if (chars === maxChars + 1) return text.subarray(0, i)
    chars++
  }
  return text
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff
}
