import { Parser } from 'htmlparser2'
import type { DeriveLimits } from './limits.js'

export interface Anchor {
  href: string
  /** The anchor's text, whitespace collapsed, at most LABEL_CHARS characters. */
  label: string
}

export interface HtmlScan {
  anchors: Anchor[]
  /** A plain-text rendering (at most `htmlTextChars`), when asked for. */
  text: string
  /**
   * Elements nest deeper than `maxHtmlDepth`, or unmatched end tags would cost the parser too much: the HTML is not
   * rendered (see derive.ts), and the scan stopped where that became clear.
   */
  tooDeep: boolean
  /**
   * Tags, attributes (URL attributes weighing URL_ATTRIBUTE_TOKENS) and text runs the parser reported in the part
   * read: what sanitizing will cost, so a document of more than `maxHtmlTokens` (250,000 bare `<`, or 2,000 links) is
   * not rendered.
   */
  tokens: number
}

/** Characters of link text kept while reading an anchor (labels are shown cut to 120). */
const LABEL_CHARS = 240

/**
 * htmlparser2 looks each end tag up in its stack of open elements, so a document of deep unclosed elements followed by
 * many unmatched end tags costs depth × tags. This bounds the sum of stack depths over all end tags in one document;
 * ordinary mail (a few thousand end tags, tens deep) stays far below.
 */
const MAX_END_TAG_WORK = 1_000_000

/** sanitize-html parses and checks each URL attribute: one costs it about as much as this many tags (measured). */
const URL_ATTRIBUTES = new Set(['href', 'src', 'srcset', 'background', 'cite', 'action', 'poster'])
const URL_ATTRIBUTE_TOKENS = 16

/** Elements whose content is not text a person reads. */
const SKIP = new Set(['style', 'script', 'head', 'title', 'noscript', 'template', 'svg', 'math', 'select', 'textarea', 'xml'])
/** Elements that start a paragraph (an empty line around them) and elements that start a line. */
const PARAGRAPH = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'ul', 'ol', 'dl', 'blockquote', 'pre', 'hr', 'figure'])
const LINE = new Set([
  'div', 'tr', 'li', 'dt', 'dd', 'section', 'article', 'header', 'footer', 'main', 'nav', 'aside', 'address', 'center',
  'caption', 'tbody', 'thead', 'tfoot', 'form', 'fieldset', 'details', 'summary', 'figcaption', 'body', 'html',
])
const CELL = new Set(['td', 'th'])

/** A parser that gives up (pauses) once its end-tag lookups have cost MAX_END_TAG_WORK. */
class BoundedParser extends Parser {
  endTagWork = 0
  exhausted = false

  stackDepth(): number {
    return (this as unknown as { stack: string[] }).stack.length
  }

  override onclosetag(start: number, endIndex: number): void {
    this.endTagWork += this.stackDepth()
    if (this.endTagWork > MAX_END_TAG_WORK) {
      this.exhausted = true
      this.pause()
      return
    }
    super.onclosetag(start, endIndex)
  }
}

/**
 * One pass of htmlparser2 over the first `htmlScanChars` of a message's HTML: the anchors (href and text, entities
 * decoded by the parser, which turns invalid references into U+FFFD), a plain-text rendering, and whether the HTML
 * nests too deep to render. The pass stops as soon as the nesting passes `maxHtmlDepth` or end tags cost too much
 * (BoundedParser). An anchor left open ends where the next one starts, as browsers show it.
 */
export function scanHtml(html: string, limits: DeriveLimits, wantText = true): HtmlScan {
  const anchors: Anchor[] = []
  let open: Anchor | null = null
  let tooDeep = false
  let skipping = 0
  let pre = 0
  let text = ''
  /**
   * The last character of `text`, kept aside: `text` grows by many small appends, and text.endsWith() would flatten
   * the whole rope each time (quadratic in the kept text for HTML of thousands of tiny runs).
   */
  let lastChar = ''
  /** Line breaks owed before the next text (0–2): blocks ask, text pays, so empty blocks leave no gaps. */
  let owedBreaks = 0
  let pendingSpace = false
  let tokens = 0
  const textFull = () => !wantText || text.length >= limits.htmlTextChars
  const ask = (breaks: number) => {
    if (text !== '') owedBreaks = Math.max(owedBreaks, breaks)
  }
  const write = (piece: string) => {
    if (textFull() || piece === '') return
    if (owedBreaks > 0) {
      text += owedBreaks === 1 ? '\n' : '\n\n'
      owedBreaks = 0
      pendingSpace = false
    } else if (pendingSpace && text !== '' && lastChar !== ' ' && lastChar !== '\n') text += ' '
    pendingSpace = false
    // Not full, so at least one character of the (non-empty) piece is kept.
    const kept = piece.slice(0, limits.htmlTextChars - text.length)
    text += kept
    lastChar = kept[kept.length - 1]!
  }
  const closeAnchor = () => {
    const a = open
    open = null
    if (!a) return
    const label = a.label.trim()
    anchors.push({ href: a.href, label })
    const href = a.href.trim()
    if (/^(https?|mailto):/i.test(href) && href !== label && `mailto:${label}` !== href) {
      pendingSpace = true
      write(`(${href})`)
    }
  }
  const parser: BoundedParser = new BoundedParser(
    {
      onopentag(name, attribs) {
        tokens++
        for (const key in attribs) tokens += URL_ATTRIBUTES.has(key) ? URL_ATTRIBUTE_TOKENS : 1
        if (parser.stackDepth() > limits.maxHtmlDepth) {
          tooDeep = true
          parser.pause()
          return
        }
        if (SKIP.has(name)) skipping++
        else if (name === 'br') owedBreaks = text === '' ? 0 : Math.min(2, owedBreaks + 1)
        else if (PARAGRAPH.has(name)) ask(2)
        else if (LINE.has(name)) ask(1)
        else if (CELL.has(name)) pendingSpace = true
        if (name === 'pre') pre++
        if (name !== 'a') return
        closeAnchor()
        if (attribs.href !== undefined && anchors.length < limits.maxAnchors) open = { href: attribs.href.slice(0, limits.maxLinkUrlChars + 1), label: '' }
      },
      ontext(data) {
        tokens++
        if (skipping > 0) return
        if (open && open.label.length < LABEL_CHARS) {
          const piece = data.slice(0, LABEL_CHARS).replace(/\s+/g, ' ')
          open.label = (open.label + (open.label.endsWith(' ') && piece.startsWith(' ') ? piece.slice(1) : piece)).slice(0, LABEL_CHARS)
        }
        if (textFull()) return
        if (pre > 0) return write(data)
        // Only as much of the text as can still be kept is normalized.
        const piece = data.slice(0, limits.htmlTextChars - text.length + 1).replace(/\s+/g, ' ')
        if (piece.startsWith(' ')) pendingSpace = true
        const trimmed = piece.trim()
        write(trimmed)
        if (trimmed !== '' && piece.endsWith(' ')) pendingSpace = true
      },
      onclosetag(name) {
        tokens++
        if (SKIP.has(name)) skipping = Math.max(0, skipping - 1)
        else if (PARAGRAPH.has(name)) ask(2)
        else if (LINE.has(name)) ask(1)
        else if (CELL.has(name)) pendingSpace = true
        if (name === 'pre') pre = Math.max(0, pre - 1)
        if (name === 'a') closeAnchor()
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.write(html.length > limits.htmlScanChars ? html.slice(0, limits.htmlScanChars) : html)
  if (parser.exhausted) tooDeep = true
  if (!tooDeep) parser.end()
  closeAnchor()
  return { anchors, text, tooDeep, tokens }
}
