import { Parser } from 'htmlparser2'
import type { DeriveLimits } from './limits.js'

export interface Anchor {
  href: string
  /** The anchor's text, whitespace collapsed, at most LABEL_CHARS characters. */
  label: string
}

export interface HtmlScan {
  anchors: Anchor[]
  /** Elements were left open deeper than the limit: the HTML is not rendered (see derive.ts). */
  tooDeep: boolean
}

/** Characters of link text kept while reading an anchor (labels are shown cut to 120). */
const LABEL_CHARS = 240

/**
 * One pass of htmlparser2's tokenizer over the first `htmlScanChars` of a message's HTML: the anchors (href and text,
 * entities decoded by the parser, which turns invalid references into U+FFFD) and whether elements nest too deep.
 * The pass stops as soon as the nesting passes `maxHtmlDepth`, because htmlparser2 looks each unmatched end tag up in
 * its stack of open elements, which makes deep unclosed nesting quadratic. An anchor left open ends where the next
 * one starts, as browsers show it.
 */
export function scanHtml(html: string, limits: DeriveLimits): HtmlScan {
  const anchors: Anchor[] = []
  let open: Anchor | null = null
  let tooDeep = false
  const closeAnchor = () => {
    if (open) anchors.push({ href: open.href, label: open.label.trim() })
    open = null
  }
  const parser: Parser = new Parser(
    {
      onopentag(name, attribs) {
        if ((parser as unknown as { stack: string[] }).stack.length > limits.maxHtmlDepth) {
          tooDeep = true
          parser.pause()
          return
        }
        if (name !== 'a') return
        closeAnchor()
        if (attribs.href !== undefined && anchors.length < limits.maxAnchors) open = { href: attribs.href.slice(0, limits.maxLinkUrlChars + 1), label: '' }
      },
      ontext(text) {
        if (!open || open.label.length >= LABEL_CHARS) return
        const piece = text.slice(0, LABEL_CHARS).replace(/\s+/g, ' ')
        open.label = (open.label + (open.label.endsWith(' ') && piece.startsWith(' ') ? piece.slice(1) : piece)).slice(0, LABEL_CHARS)
      },
      onclosetag(name) {
        if (name === 'a') closeAnchor()
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.write(html.length > limits.htmlScanChars ? html.slice(0, limits.htmlScanChars) : html)
  if (!tooDeep) parser.end()
  closeAnchor()
  return { anchors, tooDeep }
}

/**
 * Text of HTML without a parser's stack: tags skipped by position, so cost is one pass whatever the nesting. Used for
 * HTML too deep or too large for the full rendering; the tags and entities it leaves are only the malformed ones.
 */
export function stripTags(html: string, maxChars: number): string {
  let out = ''
  let at = 0
  while (at < html.length && out.length < maxChars) {
    const lt = html.indexOf('<', at)
    const end = lt < 0 ? html.length : lt
    out += html.slice(at, Math.min(end, at + maxChars - out.length))
    if (lt < 0) break
    const lower = html.slice(lt + 1, lt + 7).toLowerCase()
    // Style and script text is not text a person reads.
    const skipTo = lower.startsWith('style') ? '</style' : lower.startsWith('script') ? '</script' : null
    let gt = html.indexOf('>', lt + 1)
    if (skipTo) {
      const close = indexOfInsensitive(html, skipTo, lt + 1)
      gt = close < 0 ? -1 : html.indexOf('>', close)
    }
    if (gt < 0) break
    out += ' '
    at = gt + 1
  }
  return out
}

function indexOfInsensitive(haystack: string, lowerNeedle: string, from: number): number {
  for (let at = haystack.indexOf('<', from); at >= 0; at = haystack.indexOf('<', at + 1)) {
    if (haystack.slice(at, at + lowerNeedle.length).toLowerCase() === lowerNeedle) return at
  }
  return -1
}
