/**
 * The text of a message whose body needs no MIME structure: a single text/plain part in UTF-8 or US-ASCII, sent 7bit,
 * 8bit or quoted-printable, not format=flowed. mailparser would stream such a body through its line splitter and
 * decoders only to join the lines again; for a 100 KB message that was most of the parse worker's time, and for a
 * 9 MB quoted-printable one it built a 9 MB string that the next reader paid to flatten. Anything else returns null
 * and the caller gives the whole message to mailparser (which still parses the header block in every case).
 */
import { isAscii, isUtf8 } from 'node:buffer'
import { HEADER_PARSE_LIMITS, requireFromMailsplit } from './header-budget.js'

const BLANK_LINE = Buffer.from('\r\n\r\n')
const CR = 0x0d
const LF = 0x0a

/**
 * mailparser's own quoted-printable decoder (libqp, through mailsplit; patched to run in linear time), so a body is
 * decoded here exactly as mailparser would decode it.
 */
const libqp = requireFromMailsplit('libqp') as { decode: (input: Buffer) => Buffer }

export interface PlainTextBody {
  /** The header block through its blank line: what mailparser still reads. */
  head: Buffer
  /** The text, UTF-8 with LF line ends, in memory of its own (so it can move to another thread). */
  text: Buffer
  /** Whether the body is the text itself with each LF written CRLF (7bit and 8bit), so the source need not keep it. */
  verbatim: boolean
}

export function plainTextBody(raw: Buffer): PlainTextBody | null {
  const end = raw.indexOf(BLANK_LINE)
  if (end < 0 || end > HEADER_PARSE_LIMITS.blockBytes) return null
  const block = raw.toString('latin1', 0, end)
  // A bare LF could end the header block earlier for mailparser (a line of just LF): leave such a message to it.
  if (countLineFeeds(block) !== block.split('\r\n').length - 1) return null
  const headers = unfoldedHeaders(block)
  const contentType = only(headers, 'content-type')
  const encoding = only(headers, 'content-transfer-encoding')
  if (contentType === null || encoding === null) return null
  const charset = contentType === undefined ? undefined : plainCharset(contentType)
  if (charset === null) return null
  // Trimmed and compared rather than matched: a pattern with \s* at both ends is one more backtracking risk.
  const transfer = encoding === undefined ? '7bit' : encoding.trim().toLowerCase()
  if (transfer !== '7bit' && transfer !== '8bit' && transfer !== 'quoted-printable') return null

  const head = raw.subarray(0, end + BLANK_LINE.length)
  const body = raw.subarray(end + BLANK_LINE.length)
  // mailparser reports no text at all for an empty body; not worth a special case here.
  if (body.length === 0) return null
  if (transfer === 'quoted-printable') {
    const text = quotedPrintableText(body, charset === 'utf-8')
    return text === null ? null : { head, text, verbatim: false }
  }
  // Invalid UTF-8, or 8-bit bytes in a body declared ASCII: mailparser's charset handling decides.
  const isUtf8Declared = charset === 'utf-8'
  if (!(isUtf8Declared ? isUtf8(body) : isAscii(body))) return null
  // One char per byte, so line ends are replaced without decoding the UTF-8: the string stays one byte per char (V8's
  // fast kind) whatever the text, and the text crosses to the store worker as bytes that SQLite takes as they are.
  const byteChars = body.toString('latin1')
  const withLf = byteChars.replaceAll('\r\n', '\n')
  // A CR or LF that is not part of a CRLF pair (every LF left must be one that replaced a CRLF): leave line-end repair
  // to mailparser. Checked on the string this path makes anyway (hasOnlyCrlf, on bytes, measured 23–43 % slower on 2–100 KB here).
  if (withLf.includes('\r') || countLineFeeds(withLf) !== byteChars.length - withLf.length) return null
  const text = Buffer.allocUnsafeSlow(withLf.length)
  text.write(withLf, 'latin1')
  return { head, text, verbatim: true }
}

/**
 * A quoted-printable body's text as mailparser makes it: decoded by libqp, read as UTF-8, each CRLF or LF made LF.
 * Null (mailparser decides) when the body has a line end other than CRLF, or when the decoded bytes are not valid
 * UTF-8 (or, declared US-ASCII, hold 8-bit bytes). All of it is a few linear passes over bytes: no string is made.
 */
function quotedPrintableText(body: Buffer, isUtf8Declared: boolean): Buffer | null {
  if (!hasOnlyCrlf(body)) return null
  const decoded = libqp.decode(body)
  if (decoded.length === 0 || !(isUtf8Declared ? isUtf8(decoded) : isAscii(decoded))) return null
  let cr = decoded.indexOf(CR)
  if (cr < 0) return decoded
  // A CR only goes when an LF follows it; a lone CR stays, as in mailparser's /\r?\n/ replacement.
  const text = Buffer.allocUnsafeSlow(decoded.length)
  let length = 0
  let from = 0
  for (; cr >= 0; cr = decoded.indexOf(CR, cr + 1)) {
    if (decoded[cr + 1] !== LF) continue
    length += decoded.copy(text, length, from, cr)
    from = cr + 1
  }
  length += decoded.copy(text, length, from)
  return length === text.length ? text : Buffer.from(text.subarray(0, length))
}

/** Whether every CR in `body` starts a CRLF and every LF ends one (memchr-speed searches, no string made). */
function hasOnlyCrlf(body: Buffer): boolean {
  let pairs = 0
  for (let cr = body.indexOf(CR); cr >= 0; cr = body.indexOf(CR, cr + 2)) {
    if (body[cr + 1] !== LF) return false
    pairs++
  }
  let lineFeeds = 0
  for (let lf = body.indexOf(LF); lf >= 0; lf = body.indexOf(LF, lf + 1)) lineFeeds++
  return lineFeeds === pairs
}

/**
 * The charset of a Content-Type that is exactly `text/plain`, optionally with one `charset` parameter of UTF-8 or
 * US-ASCII (quoted or not) and a trailing `;`: that charset in lower case, undefined when none is named, null for any
 * other value. Split on `;` and trimmed rather than matched with a pattern: runs of spaces between optional parts made
 * a regular expression backtrack quadratically (a 1 MB header would hold a parse worker for minutes).
 */
export function plainCharset(contentType: string): string | undefined | null {
  const parts = contentType.split(';', 4)
  if (parts.length > 3 || parts[0]!.trim().toLowerCase() !== 'text/plain') return null
  if (parts.length === 1) return undefined
  if (parts.length === 2 && parts[1]!.trim() === '') return undefined
  if (parts.length === 3 && parts[2]!.trim() !== '') return null
  const param = parts[1]!
  const equals = param.indexOf('=')
  if (equals < 0 || param.slice(0, equals).trim().toLowerCase() !== 'charset') return null
  let value = param.slice(equals + 1).trim()
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
  value = value.toLowerCase()
  return value === 'utf-8' || value === 'us-ascii' ? value : null
}

/** Header name (lower case) → values, folded lines joined. */
function unfoldedHeaders(block: string): Map<string, string[]> {
  const headers = new Map<string, string[]>()
  for (const line of block.split(/\r\n(?![ \t])/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).replace(/\r\n[ \t]+/g, ' ')
    // Pushed, not copied: a header block of thousands of one repeated header stays linear.
    const values = headers.get(name)
    if (values) values.push(value)
    else headers.set(name, [value])
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
