import { scanHtml } from './html-scan.js'
import { DEFAULT_DERIVE_LIMITS, type DeriveLimits } from './limits.js'

/**
 * A readable plain-text rendering of the first `htmlScanChars` of an HTML body, at most `htmlTextChars` long: blocks on
 * their own lines, links as "label (url)", style and script left out. One bounded parser pass (scanHtml); never throws.
 */
export function htmlToText(html: string, limits: DeriveLimits = DEFAULT_DERIVE_LIMITS): string {
  return tidy(scanHtml(html, limits).text)
}

/**
 * Trailing blanks off each line, at most one empty line in a row. Done line by line: `/[ \t]+\n/` would rescan a long
 * run of blanks that ends without a newline once for each of its positions.
 */
export function tidy(text: string): string {
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
