import { createRequire } from 'node:module'
import type { HeaderLine } from '@zone-eu/mailsplit'
import { MailParser } from 'mailparser'

/**
 * What one message's header lines may cost the parser. mailparser reads address headers with a tokenizer that costs
 * about 1.3 µs per byte (a 1 MB To of `"a` took 1.3 s, a 1 MB From of `<` 0.7 s; a body byte costs ~0.05 µs), and it
 * does so in every MIME part's header block, so a 10 MB message of such parts kept a parse worker busy for many
 * seconds. The raw source and the stored header lines stay whole: only what mailparser interprets is bounded.
 */
export const HEADER_PARSE_LIMITS = {
  /**
   * A MIME part's header block, at most (mailsplit's own limit); past it the message is read by hand. Not lower: a
   * real mail of the corpus (flanker/long-header.eml) folds a 200 KB subject, and the costly headers are bounded below.
   */
  blockBytes: 1024 * 1024,
  /**
   * One structured header line (Content-Type, Content-Disposition, DKIM-Signature, References, …) as mailparser parses
   * it. Other lines, the subject among them, are only decoded (about 25 ns a byte) and go whole: a real mail of the
   * corpus folds a 200 KB subject.
   */
  lineBytes: 64 * 1024,
  /** Address header bytes (From, To, Cc, …) parsed per message, all parts together: some 800 addresses. */
  addressBytes: 32 * 1024,
} as const

const ADDRESS_KEYS = new Set(['from', 'to', 'cc', 'bcc', 'sender', 'reply-to', 'delivered-to', 'return-path', 'disposition-notification-to'])
const STRUCTURED_KEYS = new Set(['content-type', 'content-disposition', 'dkim-signature', 'references', 'message-id', 'in-reply-to', 'date'])

/** Address bytes each parser has parsed so far: one MailParser parses one message (simpleParser makes one per call). */
const spent = new WeakMap<object, number>()

/** Header lines cut to what the budget left: whole addresses where a comma allows, the header's name always kept. */
export function boundHeaderLines(parser: object, lines: readonly HeaderLine[]): HeaderLine[] {
  let used = spent.get(parser) ?? 0
  const bounded = lines.map((header) => {
    let limit = STRUCTURED_KEYS.has(header.key) || ADDRESS_KEYS.has(header.key) ? HEADER_PARSE_LIMITS.lineBytes : Infinity
    if (ADDRESS_KEYS.has(header.key)) limit = Math.min(limit, Math.max(HEADER_PARSE_LIMITS.addressBytes - used, 0))
    const line = cutLine(header.line, limit, ADDRESS_KEYS.has(header.key))
    if (ADDRESS_KEYS.has(header.key)) used += line.length
    return line === header.line ? header : { key: header.key, line }
  })
  spent.set(parser, used)
  return bounded
}

/** A long-lived parser (the header-block parser) starts each message with the whole budget. */
export function resetHeaderBudget(parser: object): void {
  spent.delete(parser)
}

function cutLine(line: string, limit: number, atComma: boolean): string {
  if (line.length <= limit) return line
  const name = line.indexOf(':') + 1
  const comma = atComma ? line.lastIndexOf(',', limit) : -1
  return line.slice(0, Math.max(comma > name ? comma : limit, name))
}

type HeaderProcessor = { processHeaders(lines: HeaderLine[]): unknown }
const prototype = MailParser.prototype as unknown as HeaderProcessor
const processHeaders = prototype.processHeaders
// mailparser calls processHeaders for every MIME part's header block, from inside simpleParser, where no option
// reaches it. The method is internal to mailparser (pinned); parse-message.test requires its results on real mail.
prototype.processHeaders = function (this: HeaderProcessor, lines: HeaderLine[]) {
  return processHeaders.call(this, boundHeaderLines(this, lines ?? []))
}

/**
 * A package as mailsplit itself loads it (libmime, libqp): the very copy, with our patches, that parses and decodes for
 * mailparser, so what ingest patches or calls is what mailparser runs.
 */
export function requireFromMailsplit(name: string): unknown {
  return createRequire(createRequire(import.meta.url).resolve('@zone-eu/mailsplit'))(name)
}

type StructuredValueParser = { parseHeaderValue(value: unknown): unknown }
/** The libmime that mailsplit (and mailparser, the same copy) parses structured header values with. */
const libmime = requireFromMailsplit('libmime') as { Libmime: { prototype: StructuredValueParser } }
const parseHeaderValue = libmime.Libmime.prototype.parseHeaderValue
// mailsplit parses each part's Content-Type and Content-Disposition with libmime before mailparser sees the part, one
// char at a time with a string built by +=: about 0.1 µs a byte, so a 1 MB Content-Type cost 90–110 ms of a parse
// worker, and a message can hold several parts of them. Only what is parsed is cut, at the structured line limit.
libmime.Libmime.prototype.parseHeaderValue = function (this: StructuredValueParser, value: unknown) {
  const bounded = typeof value === 'string' && value.length > HEADER_PARSE_LIMITS.lineBytes ? value.slice(0, HEADER_PARSE_LIMITS.lineBytes) : value
  return parseHeaderValue.call(this, bounded)
}
