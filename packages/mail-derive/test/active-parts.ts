import { Parser } from 'htmlparser2'

const ACTIVE = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'svg', 'math', 'form', 'input', 'button', 'select', 'textarea', 'meta', 'base', 'link', 'template', 'video', 'audio'])
const DANGEROUS_CSS = /expression\s*\(|javascript:|vbscript:|@import|-moz-binding|behaviou?r\s*:/i

/** What a browser would run or load in sanitized HTML, read as a browser's parser reads it (text may say anything). */
export function activeParts(html: string): string[] {
  const found: string[] = []
  let inStyle = false
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (ACTIVE.has(name)) found.push(`<${name}>`)
        inStyle = name === 'style'
        for (const [key, value] of Object.entries(attribs)) {
          if (key.startsWith('on')) found.push(`${name}[${key}]`)
          const url = value.replace(/[\s\u0000-\u001f]+/g, '').toLowerCase()
          if (['href', 'src', 'background', 'action', 'formaction'].includes(key) && /^(javascript|vbscript):|^data:(?!image\/)/.test(url)) found.push(`${name}[${key}]=${value}`)
          if (key === 'style' && DANGEROUS_CSS.test(value)) found.push(`${name}[style]`)
        }
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

