import { Parser } from 'htmlparser2'
import { parse, type DefaultTreeAdapterTypes as P5 } from 'parse5'

const ACTIVE = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'svg', 'math', 'form', 'input', 'button', 'select', 'textarea', 'meta', 'base', 'link', 'template', 'video', 'audio'])
const DANGEROUS_CSS = /expression\s*\(|javascript:|vbscript:|@import|-moz-binding|behaviou?r\s*:/i

/**
 * What a browser would run or load in sanitized HTML (text may say anything), read by two parsers: htmlparser2, which
 * sanitize-html itself is built on, and parse5, which follows the HTML standard's tree building as browsers do. A
 * payload only one of them sees as a script, handler or javascript: URL is found all the same.
 */
export function activeParts(html: string): string[] {
  return [...byHtmlparser2(html), ...byParse5(html).map((part) => `parse5: ${part}`)]
}

function elementParts(name: string, attribs: Record<string, string>): string[] {
  const found: string[] = []
  if (ACTIVE.has(name)) found.push(`<${name}>`)
  for (const [key, value] of Object.entries(attribs)) {
    if (key.startsWith('on')) found.push(`${name}[${key}]`)
    const url = value.replace(/[\s\u0000-\u001f]+/g, '').toLowerCase()
    if (['href', 'src', 'background', 'action', 'formaction'].includes(key) && /^(javascript|vbscript):|^data:(?!image\/)/.test(url)) found.push(`${name}[${key}]=${value}`)
    if (key === 'style' && DANGEROUS_CSS.test(value)) found.push(`${name}[style]`)
  }
  return found
}

function byHtmlparser2(html: string): string[] {
  const found: string[] = []
  let inStyle = false
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        found.push(...elementParts(name, attribs))
        inStyle = name === 'style'
      },
      ontext(text) {
        if (inStyle && DANGEROUS_CSS.test(text)) found.push('<style> text')
      },
      onclosetag() {
        inStyle = false
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.end(html)
  return found
}

/** The same checks over the tree parse5 builds for the HTML as a document (a template's content included). */
function byParse5(html: string): string[] {
  const found: string[] = []
  const visit = (node: P5.Node) => {
    if ('tagName' in node) {
      const element = node as P5.Element
      found.push(...elementParts(element.tagName.toLowerCase(), Object.fromEntries(element.attrs.map((a) => [a.name.toLowerCase(), a.value]))))
      if (element.tagName === 'style') {
        const text = element.childNodes.map((child) => ('value' in child ? (child as P5.TextNode).value : '')).join('')
        if (DANGEROUS_CSS.test(text)) found.push('<style> text')
      }
      if (element.tagName === 'template') visit((element as P5.Template).content)
    }
    if ('childNodes' in node) for (const child of (node as P5.ParentNode).childNodes) visit(child)
  }
  visit(parse(html))
  return found
}
