import { Parser } from 'htmlparser2'

/** Attributes the sanitizer parks remote references in; "Show images" moves them back. */
const REMOTE_ATTRIBUTES: Readonly<Record<string, string>> = {
  'data-remote-src': 'src',
  'data-remote-srcset': 'srcset',
  'data-remote-background': 'background',
  'data-remote-style': 'style',
}

const VOID_ELEMENTS = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'])

/** Our own frame styling, before the mail's: a phone gets narrower padding, and tables laid out for 600 px give way. */
const FRAME_STYLE =
  '<style>body{margin:0;padding:12px;font-family:system-ui,sans-serif;word-wrap:break-word}img{max-width:100%;height:auto}' +
  '@media (max-width:639px){body{padding:8px}table{max-width:100%!important}}</style>'

export interface MailDocumentOptions {
  /** Whether the reader asked to see remote images ("Show images"). */
  showRemote: boolean
}

/**
 * The CSP a mail document is served under: no script ever; images from data:, this message's own attachments (the
 * absolute folder URL `attachments`, ending in `/`, so only paths below it match) and, once the reader asks, the web.
 * Nothing else of our origin: a mail must not reach `/s/{code}` or any other path of ours before the reader asks for
 * images. `sandbox` keeps scripts off even if the document is opened on its own, outside the app's sandboxed frame.
 */
export function mailDocumentCsp(attachments: string, showRemote: boolean): string {
  const img = ['data:', attachments, ...(showRemote ? ['https:', 'http:'] : [])].join(' ')
  return [
    "default-src 'none'",
    `img-src ${img}`,
    "style-src 'unsafe-inline'",
    'font-src data:',
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
    'sandbox allow-same-origin allow-popups allow-popups-to-escape-sandbox',
  ].join('; ')
}

/**
 * A whole HTML document for the mail frame, from the HTML the sanitizer stored (sanitizeMailHtml's output, attachment
 * references resolved). Remote references come back only with `showRemote`; the inert copies are dropped either way,
 * so nothing parked for the opt-in ships unused. The sanitizer's output is re-serialized attribute by attribute
 * (values stay as it escaped them), so this pass cannot add markup the sanitizer did not allow. The mail's own <html>
 * keeps only its direction and language (the sanitizer's rule), which the browser's parser puts on our root.
 */
export function buildMailDocument(safeHtml: string, options: MailDocumentOptions): string {
  let out = ''
  // The opt-in CSS of the <style> block being read, replacing its blocked text when images are shown.
  let styleSwap: string | null = null
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        let attributes = ''
        let remoteCss: string | null = null
        const restored: Record<string, string> = {}
        for (const [attr, value] of Object.entries(attribs)) {
          if (attr === 'data-remote-css') remoteCss = value
          else if (attr in REMOTE_ATTRIBUTES) restored[REMOTE_ATTRIBUTES[attr]!] = value
        }
        for (const [attr, value] of Object.entries(attribs)) {
          if (attr === 'data-remote-css' || attr in REMOTE_ATTRIBUTES) continue
          if (options.showRemote && attr in restored) continue
          attributes += ` ${attr}="${value}"`
        }
        if (options.showRemote) {
          for (const [attr, value] of Object.entries(restored)) {
            // A remote style adds to the element's own (the blocked copy without its urls).
            const own = attr === 'style' && attribs.style !== undefined ? `${attribs.style};` : ''
            attributes += ` ${attr}="${own}${value}"`
          }
        }
        if (name === 'style' && options.showRemote && remoteCss !== null) styleSwap = remoteCss
        out += `<${name}${attributes}>`
      },
      ontext(text) {
        if (styleSwap === null) out += text
      },
      onclosetag(name) {
        if (name === 'style' && styleSwap !== null) {
          // The attribute's escaping undone (the sanitizer's escapeAttr), and `</` kept from ending the block early.
          out += decodeAttribute(styleSwap).replaceAll('</', '<\\/')
          styleSwap = null
        }
        if (!VOID_ELEMENTS.has(name)) out += `</${name}>`
      },
      oncomment() {},
      onprocessinginstruction() {},
    },
    // Entities stay as the sanitizer escaped them: text and values are copied through, never re-escaped.
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  )
  parser.write(safeHtml)
  parser.end()
  return `<!doctype html><html><head><meta charset="utf-8"><base target="_blank">${FRAME_STYLE}</head>${out}</html>`
}

function decodeAttribute(value: string): string {
  return value.replace(/&(quot|lt|gt|amp);/g, (_, name: string) => ({ quot: '"', lt: '<', gt: '>', amp: '&' })[name]!)
}
