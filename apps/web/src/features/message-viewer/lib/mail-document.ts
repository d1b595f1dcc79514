import DOMPurify from 'dompurify'

/** Attributes the server moves remote references into; "Show images" moves them back. */
const REMOTE_ATTRIBUTES: ReadonlyArray<[from: string, to: string]> = [
  ['data-remote-src', 'src'],
  ['data-remote-srcset', 'srcset'],
  ['data-remote-background', 'background'],
  ['data-remote-style', 'style'],
]

/**
 * The CSP every mail document runs under: no script ever; images from data:, this message's own attachments (cid:
 * references, `attachments` is their absolute folder URL ending in `/`) and, on request, the web. Nothing else of
 * our origin: a mail must not reach `/s/{code}` or any other path of ours before the reader asks for images.
 */
export function mailCsp(attachments: string, showRemote: boolean): string {
  const img = ['data:', attachments, ...(showRemote ? ['https:', 'http:'] : [])].join(' ')
  return `default-src 'none'; img-src ${img}; style-src 'unsafe-inline'; font-src data:; form-action 'none'`
}

function purifier(): ReturnType<typeof DOMPurify> {
  // A private instance: the hook below must not affect other DOMPurify users in the page.
  const purify = DOMPurify(window)
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node instanceof Element && node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank')
      node.setAttribute('rel', 'noopener noreferrer')
    }
  })
  return purify
}

let instance: ReturnType<typeof DOMPurify> | null = null

/** A mail written right to left says so on its <html>: that, and its language, are kept (the body keeps its own). */
function ownDirection(doc: HTMLElement): string {
  const root = doc.tagName === 'HTML' ? doc : doc.querySelector('html')
  let attributes = ''
  const dir = root?.getAttribute('dir')?.toLowerCase()
  if (dir === 'rtl' || dir === 'ltr' || dir === 'auto') attributes += ` dir="${dir}"`
  const lang = root?.getAttribute('lang')
  if (lang && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(lang)) attributes += ` lang="${lang}"`
  return attributes
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}

/**
 * The srcdoc of the sandboxed mail frame: the server-sanitized HTML purified again (defence in depth),
 * remote references restored only when `showRemote`, under a CSP meta placed before any mail content.
 */
export function buildMailDocument(html: string, options: { attachments: string; showRemote: boolean }): string {
  instance ??= purifier()
  const doc = instance.sanitize(html, {
    WHOLE_DOCUMENT: true,
    RETURN_DOM: true,
    FORBID_TAGS: ['form', 'input', 'button', 'textarea', 'select', 'base', 'meta', 'link', 'iframe', 'frame', 'object', 'embed'],
  }) as HTMLElement
  // The server parks a <style> block's CSS with its remote url()s here for the opt-in; nothing reads it after this,
  // so it is dropped either way rather than shipped as dead weight.
  for (const el of Array.from(doc.querySelectorAll('[data-remote-css]'))) {
    const css = el.getAttribute('data-remote-css')!
    el.removeAttribute('data-remote-css')
    // `</` would end the <style> early once serialized as raw text; `<\/` means the same in CSS.
    if (options.showRemote && el.tagName === 'STYLE') el.textContent = css.replace(/<\//g, '<\\/')
  }
  if (options.showRemote) {
    for (const [from, to] of REMOTE_ATTRIBUTES) {
      for (const el of Array.from(doc.querySelectorAll(`[${from}]`))) {
        const value = el.getAttribute(from)!
        el.setAttribute(to, to === 'style' ? `${el.getAttribute('style') ?? ''};${value}` : value)
        el.removeAttribute(from)
      }
    }
  }
  const head =
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(mailCsp(options.attachments, options.showRemote))}">` +
    '<meta charset="utf-8"><base target="_blank">' +
    '<style>body{margin:0;padding:12px;font-family:system-ui,sans-serif;word-wrap:break-word}img{max-width:100%;height:auto}' +
    // On a phone, tables laid out for 600 px give way where they can; what cannot is zoomed out by fitMailToFrame.
    '@media (max-width:639px){body{padding:8px}table{max-width:100%!important}}</style>'
  const headEl = doc.querySelector('head')
  const inner = doc.querySelector('body')?.outerHTML ?? doc.outerHTML
  return `<!doctype html><html${ownDirection(doc)}><head>${head}${headEl?.innerHTML ?? ''}</head>${inner}</html>`
}
