import { compile } from 'html-to-text'
import { decodeBasicEntities } from './entities.js'
import { stripTags } from './html-scan.js'
import { DEFAULT_DERIVE_LIMITS, type DeriveLimits } from './limits.js'

/** Compiled once: html-to-text's option processing is the expensive part of a call. */
const convert = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, linkBrackets: ['(', ')'] } },
    { selector: 'img', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'head', format: 'skip' },
    { selector: 'table', format: 'block' },
    { selector: 'tr', format: 'block' },
    { selector: 'td', format: 'inline' },
    { selector: 'th', format: 'inline' },
  ],
  // Callers pass at most htmlScanChars and check the nesting first (scanHtml); these only bound the tree it walks.
  limits: { maxDepth: 200, maxChildNodes: 20_000, ellipsis: '…' },
})

/**
 * A readable plain-text rendering of the first `htmlScanChars` of an HTML body, at most `htmlTextChars` long. Never
 * throws: malformed HTML gives what could be read. `shallow` says the caller has checked the nesting (scanHtml);
 * otherwise, or when the renderer fails, tags are skipped by position (linear whatever the nesting).
 */
export function htmlToText(html: string, limits: DeriveLimits = DEFAULT_DERIVE_LIMITS, shallow = true): string {
  const input = html.length > limits.htmlScanChars ? html.slice(0, limits.htmlScanChars) : html
  let text: string
  try {
    text = shallow ? convert(input) : flatText(input, limits)
  } catch {
    text = flatText(input, limits)
  }
  return tidy(text.length > limits.htmlTextChars ? text.slice(0, limits.htmlTextChars) : text)
}

function flatText(html: string, limits: DeriveLimits): string {
  return decodeBasicEntities(stripTags(html, limits.htmlTextChars)).replace(/[ \t\r\f]+/g, ' ')
}

/**
 * Trailing blanks off each line, at most one empty line in a row. Done line by line: `/[ \t]+\n/` would rescan a long
 * run of blanks that ends without a newline once for each of its positions.
 */
function tidy(text: string): string {
  const lines: string[] = []
  let blank = 0
  for (const line of text.split('\n')) {
    let end = line.length
    while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--
    const trimmed = line.slice(0, end)
    blank = trimmed === '' ? blank + 1 : 0
    if (blank < 2) lines.push(trimmed)
  }
  return lines.join('\n').trim()
}
