/**
 * The text of a message whose body needs no MIME decoding: a single text/plain part in UTF-8 or US-ASCII, sent 7bit or
 * 8bit, not format=flowed. mailparser would stream such a body through its line splitter and decoders only to join the
 * lines again; for a 100 KB message that was most of the parse worker's time. Anything else returns null and the
 * caller gives the whole message to mailparser (which still parses the header block in every case).
 */
import { isAscii, isUtf8 } from 'node:buffer'

const BLANK_LINE = Buffer.from('\r\n\r\n')
/** mailparser's limit for a header block (mailsplit's default); past it mailparser fails, and so must we. */
const MAX_HEAD_BYTES = 1024 * 1024
const PLAIN_TYPE = /^\s*text\/plain\s*(?:;\s*charset\s*=\s*(?:"(utf-8|us-ascii)"|(utf-8|us-ascii))\s*)?;?\s*$/i
const IDENTITY_ENCODING = /^\s*(?:7bit|8bit)\s*$/i

export interface PlainTextBody {
  /** The header block through its blank line: what mailparser still reads. */
  head: Buffer
  /** The text, UTF-8 with LF line ends, in memory of its own (so it can move to another thread). */
  text: Buffer
}

export function plainTextBody(raw: Buffer): PlainTextBody | null {
  const end = raw.indexOf(BLANK_LINE)
  if (end < 0 || end > MAX_HEAD_BYTES) return null
  const block = raw.toString('latin1', 0, end)
  // A bare LF could end the header block earlier for mailparser (a line of just LF): leave such a message to it.
  if (countLineFeeds(block) !== block.split('\r\n').length - 1) return null
  const headers = unfoldedHeaders(block)
  const contentType = only(headers, 'content-type')
  const encoding = only(headers, 'content-transfer-encoding')
  if (contentType === null || encoding === null) return null
  const charset = contentType === undefined ? undefined : PLAIN_TYPE.exec(contentType)
  if (charset === null) return null
  if (encoding !== undefined && !IDENTITY_ENCODING.test(encoding)) return null

  const body = raw.subarray(end + BLANK_LINE.length)
  // mailparser reports no text at all for an empty body; not worth a special case here.
  if (body.length === 0) return null
  // Invalid UTF-8, or 8-bit bytes in a body declared ASCII: mailparser's charset handling decides.
  const isUtf8Declared = (charset?.[1] ?? charset?.[2])?.toLowerCase() === 'utf-8'
  if (!(isUtf8Declared ? isUtf8(body) : isAscii(body))) return null
  // One char per byte, so line ends are replaced without decoding the UTF-8: the string stays one byte per char (V8's
  // fast kind) whatever the text, and the text crosses to the store worker as bytes that SQLite takes as they are.
  const byteChars = body.toString('latin1')
  const withLf = byteChars.replaceAll('\r\n', '\n')
  // A CR or LF that is not part of a CRLF pair (every LF left must be one that replaced a CRLF): leave line-end repair
  // to mailparser.
  if (withLf.includes('\r') || countLineFeeds(withLf) !== byteChars.length - withLf.length) return null
  const text = Buffer.allocUnsafeSlow(withLf.length)
  text.write(withLf, 'latin1')
  return { head: raw.subarray(0, end + BLANK_LINE.length), text }
}

/** Header name (lower case) → values, folded lines joined. */
function unfoldedHeaders(block: string): Map<string, string[]> {
  const headers = new Map<string, string[]>()
  for (const line of block.split(/\r\n(?![ \t])/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).replace(/\r\n[ \t]+/g, ' ')])
  }
  return headers
}

/** The header's one value, undefined when absent, null when repeated (ambiguous: not ours to decide). */
function only(headers: Map<string, string[]>, name: string): string | undefined | null {
  const values = headers.get(name)
  if (!values) return undefined
  return values.length === 1 ? values[0]! : null
}

function countLineFeeds(text: string): number {
  let count = 0
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++
  return count
}
