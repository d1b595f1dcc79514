import { describe, expect, it } from 'vitest'
import { sanitizeMailHtml } from '../src/sanitize-html.js'

/**
 * The sanitizer's allow- and drop-lists, pinned one entry per case: a tag or attribute that leaves the allow-list
 * silently costs real mail its layout, and a tag that leaves the drop-list shows its hidden text (a script's source,
 * an SVG's labels) to the reader. Changing a list must be a deliberate change of these tables.
 */
const sanitized = (html: string) => sanitizeMailHtml(html, { cidUrl: () => null }).html

const KEPT_TAGS = [
  'a', 'abbr', 'address', 'article', 'aside', 'b', 'bdi', 'bdo', 'big', 'blockquote', 'body', 'caption', 'center', 'cite',
  'code', 'colgroup', 'dd', 'del', 'details', 'dfn', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure', 'font', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'html', 'i', 'ins', 'kbd', 'label', 'li', 'main', 'mark', 'nav', 'ol', 'p',
  'picture', 'pre', 'q', 's', 'samp', 'section', 'small', 'span', 'strike', 'strong', 'style', 'sub', 'summary', 'sup',
  'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'tt', 'u', 'ul', 'var',
]
const KEPT_VOID_TAGS = ['br', 'col', 'hr', 'img', 'wbr']
/** Dropped with everything inside them. */
const DROPPED_WITH_TEXT = [
  'applet', 'audio', 'button', 'canvas', 'frameset', 'iframe', 'math', 'noscript', 'object', 'option', 'script', 'select',
  'svg', 'template', 'textarea', 'title', 'video', 'xml',
]
/** Dropped too; void, so there is nothing inside them to drop. */
const DROPPED_VOID = ['base', 'embed', 'frame', 'input', 'link', 'meta']
const LAYOUT_ATTRIBUTES = [
  'align', 'valign', 'width', 'height', 'bgcolor', 'color', 'border', 'cellpadding', 'cellspacing', 'colspan', 'rowspan',
  'dir', 'lang', 'title', 'class', 'id', 'face', 'size', 'nowrap', 'role', 'summary', 'scope', 'start', 'type',
]
/** Attributes some tags keep beyond the layout ones (URL-valued ones have rules of their own, tested elsewhere). */
const TAG_ATTRIBUTES: [string, string][] = [
  ['a', 'name'], ['img', 'alt'], ['img', 'sizes'], ['img', 'hspace'], ['img', 'vspace'], ['td', 'headers'], ['td', 'abbr'],
  ['th', 'headers'], ['th', 'abbr'], ['table', 'frame'], ['table', 'rules'], ['body', 'link'], ['body', 'vlink'],
  ['body', 'alink'], ['body', 'text'], ['col', 'span'], ['colgroup', 'span'], ['ol', 'reversed'], ['time', 'datetime'],
  ['style', 'type'], ['style', 'media'],
]

describe('what the sanitizer keeps and drops, entry by entry', () => {
  it.each(KEPT_TAGS)('keeps <%s> with its text', (tag) => {
    expect(sanitized(`<${tag}>kept text</${tag}>`)).toMatch(new RegExp(`^<${tag}(?: [^>]*)?>kept text</${tag}>$`))
  })

  it.each(KEPT_VOID_TAGS)('keeps the void <%s>', (tag) => {
    expect(sanitized(`<div>a<${tag}>b</div>`)).toMatch(new RegExp(`^<div>a<${tag}(?: [^>]*)?(?: />|></${tag}>)b</div>$`))
  })

  it.each(DROPPED_WITH_TEXT)('drops <%s> and the text inside it', (tag) => {
    expect(sanitized(`<p>before<${tag}>HIDDEN</${tag}>after</p>`)).toBe('<p>beforeafter</p>')
  })

  it.each(DROPPED_VOID)('drops the void <%s>', (tag) => {
    expect(sanitized(`<p>before<${tag} data-x="1">after</p>`)).toBe('<p>beforeafter</p>')
  })

  it.each(LAYOUT_ATTRIBUTES)('keeps the layout attribute %s on any element', (attribute) => {
    expect(sanitized(`<div ${attribute}="v1">x</div>`)).toBe(`<div ${attribute}="v1">x</div>`)
  })

  it('keeps a style attribute (its CSS goes through the CSS rules)', () => {
    expect(sanitized('<div style="color:red">x</div>')).toBe('<div style="color:red">x</div>')
  })

  it.each(TAG_ATTRIBUTES)('keeps <%s %s>', (tag, attribute) => {
    expect(sanitized(`<${tag} ${attribute}="v1">x</${tag}>`)).toContain(`${attribute}="v1"`)
  })

  it('drops an attribute on no list', () => {
    expect(sanitized('<div onclick="alert(1)" tabindex="1" contenteditable="true" x-custom="1">x</div>')).toBe('<div>x</div>')
  })
})
