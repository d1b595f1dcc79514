const BLANK_LINE = Buffer.from('\r\n\r\n')
const BARE_BLANK_LINE = Buffer.from('\n\n')
/** The first Content-Type of the header block, its type/subtype (a value folded onto the next line included). */
const CONTENT_TYPE = /(?:^|\n)content-type:[ \t]*(?:\r?\n[ \t]+)?([^;\s]*)/i

/**
 * Whether a received message is cheap enough to parse on the store thread, where it skips the hand-over to a parse
 * worker: at most `maxBytes`, and plain text (no Content-Type, or text/plain). Mail with HTML or parts costs
 * milliseconds to derive (sanitizing, links), which on the store thread would hold up every commit.
 */
export function parsesOnStore(raw: Buffer, maxBytes: number): boolean {
  if (raw.length > maxBytes) return false
  // The header block ends at the first empty line, CRLF or (as mailparser also reads it) bare LF.
  const ends = [raw.indexOf(BLANK_LINE), raw.indexOf(BARE_BLANK_LINE)].filter((i) => i >= 0)
  const end = ends.length > 0 ? Math.min(...ends) : raw.length
  const type = CONTENT_TYPE.exec(raw.toString('latin1', 0, end))?.[1]
  return type === undefined || type.toLowerCase() === 'text/plain'
}
