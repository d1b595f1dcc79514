import type { AttachmentToStore } from '@tempbox/db'
import { Headers, type HeaderLine } from '@zone-eu/mailsplit'
import { MailParser, simpleParser, type AddressObject, type EmailAddress, type ParsedMail } from 'mailparser'
import { HEADER_PARSE_LIMITS, resetHeaderBudget } from './header-budget.js'
import { plainTextBody } from './plain-text-body.js'

export interface MailAddress {
  name: string
  address: string
}

/** The store's own shape of an attachment: what is parsed is what is stored. */
export type ParsedAttachment = AttachmentToStore

/** What the rest of ingest sees of a message: mailparser's own types stay inside this file. */
export interface ParsedMessage {
  from: MailAddress
  /** To and Cc as written in the headers (group members flattened). */
  recipients: MailAddress[]
  subject: string
  /**
   * A Buffer when read straight from the body (plain-text shortcut): the text UTF-8 encoded, never made into a JS
   * string on the way to the database, which stores it as TEXT all the same.
   */
  text: string | Buffer | null
  /** Kept as sent; its sanitized form and text rendering are derived beside it (derive-view.ts). */
  html: string | null
  /** Date header in epoch ms, null when missing or unreadable. */
  sentAt: number | null
  /** Header lines in order, `[name, value]`, value unfolded but not decoded. */
  headers: Array<[string, string]>
  attachments: ParsedAttachment[]
  /** Set when the body after the header block is exactly `text` (CRLF line ends, UTF-8): where it begins in raw. */
  plainBodyStart?: number
}

/**
 * mailparser options that skip work we never use: derived text from HTML (the API renders it on demand),
 * HTML from text, and link detection. They roughly halve parse time for ordinary mail.
 */
const PARSER_OPTIONS = {
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
  // mailsplit's limit for one MIME part's header block: past it the message is read by hand (parseHeadersOnly).
  maxHeadSize: HEADER_PARSE_LIMITS.blockBytes,
} as const

/** What the rest of this file reads of a parsed header block. */
type HeaderView = Pick<ParsedMail, 'from' | 'to' | 'cc' | 'subject' | 'headerLines' | 'headers'>

/**
 * mailparser's own header processing (decoded words, address lists, charsets), reached without its streams: for a
 * header block alone, simpleParser's splitter, transforms and promises cost several times the parsing itself. The
 * method is internal to mailparser (pinned), so a test requires the same result as simpleParser on every corpus message.
 */
const headerParser = new MailParser(PARSER_OPTIONS) as unknown as {
  processHeaders: (lines: HeaderLine[]) => ParsedMail['headers']
  getAddressesHTML: (value: unknown) => string
  getAddressesText: (value: unknown) => string
}
// An address header's HTML and text renderings: mailparser builds both for every From, To and Cc; nothing here reads them.
headerParser.getAddressesHTML = () => ''
headerParser.getAddressesText = () => ''
/**
 * The headers read from `headers` below. mailparser processes each line on its own (Date, Message-ID, Received,
 * DKIM-Signature… each parsed in its own way), so the others are left out: they are stored from `headerLines` as sent.
 */
const READ_KEYS = new Set(['from', 'to', 'cc', 'subject', 'content-type'])

/** The header block as simpleParser would give it: mailsplit's line split, then mailparser's processing. */
function parseHeaderBlock(head: Buffer): HeaderView {
  const headerLines = new Headers(head).getList()
  resetHeaderBudget(headerParser)
  const headers = headerParser.processHeaders(headerLines.filter((line) => READ_KEYS.has(line.key)))
  const get = <T>(key: string) => headers.get(key) as T | undefined
  return { headerLines, headers, from: get('from'), to: get('to'), cc: get('cc'), subject: get('subject') }
}

/**
 * Parses raw RFC 822 bytes. Never throws: malformed MIME falls back to what the header block alone
 * gives, because an accepted message must be stored (with its raw source) rather than dropped.
 */
export async function parseMessage(raw: Buffer, options: { plainTextShortcut?: boolean } = {}): Promise<ParsedMessage> {
  try {
    // Some tools save messages with a UTF-8 byte order mark, which would hide the first header.
    const bom = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? 3 : 0
    const input = raw.subarray(bom)
    // A body that needs no decoding is read directly; mailparser then only parses the header block.
    const plain = options.plainTextShortcut === false ? null : plainTextBody(input)
    if (plain) {
      const headers = fromHeaders(parseHeaderBlock(plain.head))
      const text = { ...headers, text: plain.text, html: null, attachments: [] }
      return plain.verbatim ? { ...text, plainBodyStart: bom + plain.head.length } : text
    }
    const mail = await simpleParser(input, PARSER_OPTIONS)
    const html = typeof mail.html === 'string' && mail.html !== '' ? mail.html : null
    return {
      ...fromHeaders(mail),
      text: typeof mail.text === 'string' && (mail.text !== '' || html === null) ? mail.text : null,
      html,
      attachments: mail.attachments.map((a, i) => ({
        filename: a.filename ?? `attachment-${i + 1}`,
        contentType: a.contentType || 'application/octet-stream',
        size: a.content.length,
        contentId: a.cid ?? null,
        isInline: a.contentDisposition === 'inline' || (a.related === true && Boolean(a.cid)),
        content: a.content,
      })),
    }
  } catch {
    return parseHeadersOnly(raw)
  }
}

function fromHeaders(mail: HeaderView): Pick<ParsedMessage, 'from' | 'recipients' | 'subject' | 'sentAt' | 'headers'> {
  const from = flattenAddresses(mail.from)[0] ?? { name: '', address: '' }
  const charset = charsetOf(mail.headers.get('content-type'))
  return {
    from,
    recipients: [...flattenAddresses(mail.to), ...flattenAddresses(mail.cc)],
    subject: repairSubject(mail.subject ?? '', mail.headerLines, charset),
    sentAt: sentAtOf(mail.headerLines),
    headers: mail.headerLines.map((h) => splitHeaderLine(decodeHeaderBytes(h.line, charset))),
  }
}

function flattenAddresses(value: AddressObject | AddressObject[] | undefined): MailAddress[] {
  if (!value) return []
  const objects = Array.isArray(value) ? value : [value]
  const out: MailAddress[] = []
  const visit = (entry: EmailAddress) => {
    if (entry.group) entry.group.forEach(visit)
    else if (entry.address || entry.name) out.push({ name: entry.name ?? '', address: entry.address ?? '' })
  }
  for (const object of objects) object.value.forEach(visit)
  return out
}

/**
 * mailparser hands header lines over as one char per byte. Undeclared 8-bit bytes are taken as UTF-8
 * when they are valid UTF-8 (RFC 6532), otherwise in the message's own charset, else Windows-1252,
 * which is what senders of raw 8-bit headers nearly always meant.
 */
function decodeHeaderBytes(binary: string, charset = 'windows-1252'): string {
  if (!/[\x80-\xff]/.test(binary)) return binary
  const bytes = Buffer.from(binary, 'latin1')
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    try {
      return new TextDecoder(charset).decode(bytes)
    } catch {
      return new TextDecoder('windows-1252').decode(bytes)
    }
  }
}

/** mailparser turns raw non-UTF-8 subject bytes into U+FFFD; decode them ourselves instead. */
function repairSubject(subject: string, lines: ReadonlyArray<{ key: string; line: string }>, charset: string | undefined): string {
  if (!subject.includes('\uFFFD')) return subject
  const raw = [...lines].reverse().find((l) => l.key === 'subject')
  if (!raw || /=\?[^?]+\?[bq]\?/i.test(raw.line)) return subject
  return splitHeaderLine(decodeHeaderBytes(raw.line, charset))[1]
}

function charsetOf(value: unknown): string | undefined {
  const params = (value as { params?: Record<string, string> } | undefined)?.params
  return params?.charset?.toLowerCase()
}

/**
 * The Date header in epoch ms, or null when it is missing or unreadable (mailparser would put the time of parsing
 * there instead, which the inbox would show as when the mail was sent). Parsed as mailparser does, with `Date`.
 */
function sentAtOf(lines: ReadonlyArray<{ key: string; line: string }>): number | null {
  const line = lines.find((l) => l.key === 'date')?.line
  if (line === undefined) return null
  const time = new Date(splitHeaderLine(line)[1]).getTime()
  return Number.isNaN(time) ? null : time
}

function splitHeaderLine(line: string): [string, string] {
  const colon = line.indexOf(':')
  if (colon < 0) return [line.trim(), '']
  return [line.slice(0, colon).trim(), line.slice(colon + 1).replace(/\r?\n[ \t]+/g, ' ').trim()]
}

/**
 * Last resort for input mailparser rejects (a header block over HEADER_PARSE_LIMITS.blockBytes, say): read the header
 * block by hand, keep the body as text. Exported for its property tests.
 */
export function parseHeadersOnly(raw: Buffer): ParsedMessage {
  const source = raw.toString('utf8')
  const match = /\r?\n\r?\n/.exec(source)
  const head = match ? source.slice(0, match.index) : source
  const body = match ? source.slice(match.index + match[0].length) : ''
  const headers: Array<[string, string]> = []
  for (const line of head.split(/\r?\n(?![ \t])/)) {
    if (line.trim() !== '') headers.push(splitHeaderLine(line))
  }
  const get = (name: string) => headers.find(([k]) => k.toLowerCase() === name)?.[1] ?? ''
  const fromHeader = get('from')
  // The first `<` with a `>` after it, found by indexOf: a pattern like /<([^>]*)>/ rescans the rest of the header from
  // every `<`, quadratic on a From made of them.
  const open = fromHeader.indexOf('<')
  const close = open < 0 ? -1 : fromHeader.indexOf('>', open + 1)
  const date = Date.parse(get('date'))
  return {
    from: close >= 0
      ? { name: fromHeader.slice(0, open).replaceAll('"', '').trim(), address: fromHeader.slice(open + 1, close).trim() }
      : { name: '', address: fromHeader.trim() },
    recipients: [],
    subject: get('subject'),
    text: body,
    html: null,
    sentAt: Number.isNaN(date) ? null : date,
    headers,
    attachments: [],
  }
}
