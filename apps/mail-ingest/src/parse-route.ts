const BLANK_LINE = Buffer.from('\r\n\r\n')
/** The first Content-Type of the header block, its type/subtype (a value folded onto the next line included). */
const CONTENT_TYPE = /(?:^|\r\n)content-type:[ \t]*(?:\r\n[ \t]+)?([^;\s]*)/i

/**
 * Whether a received message is cheap enough to parse on the store thread, where it skips the hand-over to a parse
 * worker: at most `maxBytes`, and plain text (no Content-Type, or text/plain). Mail with HTML or parts costs
 * milliseconds to derive (sanitizing, links), which on the store thread would hold up every commit.
 */
export function parsesOnStore(raw: Buffer, maxBytes: number): boolean {
  if (raw.length > maxBytes) return false
  const end = raw.indexOf(BLANK_LINE)
  const type = CONTENT_TYPE.exec(raw.toString('latin1', 0, end < 0 ? raw.length : end))?.[1]
  return type === undefined || type.toLowerCase() === 'text/plain'
}
