import sanitize from 'sanitize-html'
import { dropImports, mapCssUrls, someCssUrl } from './css.js'
import { normalizeMailCss } from './safe-css.js'

export interface SanitizeContext {
  /** Maps a Content-ID (without angle brackets, lower-cased) to the URL that downloads that attachment. */
  cidUrl: (contentId: string) => string | null
}

export interface SanitizedHtml {
  html: string
  /** Whether remote images or resources were found (and blocked). */
  hasRemoteContent: boolean
}

const ALLOWED_TAGS = [
  'a', 'abbr', 'address', 'article', 'aside', 'b', 'bdi', 'bdo', 'big', 'blockquote', 'body', 'br', 'caption', 'center',
  'cite', 'code', 'col', 'colgroup', 'dd', 'del', 'details', 'dfn', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure',
  'font', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'i', 'img', 'ins', 'kbd', 'label', 'li', 'main',
  'mark', 'nav', 'ol', 'p', 'picture', 'pre', 'q', 's', 'samp', 'section', 'small', 'span', 'strike', 'strong', 'style',
  'sub', 'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'tt', 'u', 'ul', 'var', 'wbr',
  // Kept only for its direction and language (a right-to-left mail often says so on <html> alone).
  'html',
]

const LAYOUT_ATTRIBUTES = [
  'align', 'valign', 'width', 'height', 'bgcolor', 'color', 'border', 'cellpadding', 'cellspacing', 'colspan', 'rowspan',
  'dir', 'lang', 'title', 'class', 'id', 'style', 'face', 'size', 'nowrap', 'role', 'summary', 'scope', 'start', 'type',
  'data-remote-src', 'data-remote-srcset', 'data-remote-background', 'data-remote-style',
]

/** Disallowed tags whose content is dropped too, not just the tag (script text, SVG/MathML payloads, form controls). */
const DROP_WITH_CONTENT = [
  'script', 'noscript', 'textarea', 'option', 'select', 'svg', 'math', 'title', 'iframe', 'frame', 'frameset',
  'object', 'embed', 'applet', 'template', 'xml', 'button', 'input', 'meta', 'base', 'link', 'audio', 'video', 'canvas',
]

const REMOTE_URL = /^(?:https?:)?\/\//i
/** Literal alternatives only: each costs a bounded look at one position. */
const CSS_DANGER = /expression\s*\(|behaviou?r\s*:|-moz-binding|javascript:|vbscript:|@import|-ms-filter|\bfilter\s*:\s*progid/gi

/** Removes CSS features that execute or load things; remote `url()` become `none` and are reported. */
function cleanCss(css: string, ctx: SanitizeContext, found: { remote: boolean }): string {
  return mapCssUrls(dropImports(css).replace(CSS_DANGER, 'blocked:'), (u) => {
    if (/^cid:/i.test(u)) {
      const target = ctx.cidUrl(u.slice(4))
      return target ? `url("${target}")` : 'none'
    }
    if (/^data:image\//i.test(u)) return `url("${u.replace(/"/g, '%22')}")`
    if (REMOTE_URL.test(u)) found.remote = true
    return 'none'
  })
}

function hasRemoteCssUrl(css: string): boolean {
  return someCssUrl(css, (u) => REMOTE_URL.test(u))
}

/** A remote CSS `url()` kept only for the "Show images" opt-in: dangerous features removed, remote URLs kept. */
function optInCss(css: string, ctx: SanitizeContext): string {
  return mapCssUrls(dropImports(css).replace(CSS_DANGER, 'blocked:'), (u) => {
    if (REMOTE_URL.test(u) || /^data:image\//i.test(u)) return `url("${u.replace(/"/g, '%22')}")`
    if (/^cid:/i.test(u)) {
      const target = ctx.cidUrl(u.slice(4))
      return target ? `url("${target}")` : 'none'
    }
    return 'none'
  })
}

/**
 * Sanitizes a mail's HTML for display in a sandboxed iframe. Nothing runs (no script, handlers, javascript: URLs,
 * SVG/MathML, CSS expressions), nothing submits (no forms), nothing navigates the frame (no meta refresh, no base),
 * and nothing remote loads: remote images and CSS urls move to `data-remote-*` attributes that the client restores
 * on "Show images". `cid:` references point at the message's own attachments.
 */
export function sanitizeMailHtml(input: string, ctx: SanitizeContext, maxCssChars = 64 * 1024): SanitizedHtml {
  const found = { remote: false }

  const rewriteStyleAttr = (attribs: Record<string, string>): void => {
    if (attribs.style === undefined) return
    if (attribs.style.length > maxCssChars) {
      delete attribs.style
      return
    }
    const original = normalizeMailCss(attribs.style)
    if (hasRemoteCssUrl(original)) attribs['data-remote-style'] = optInCss(original, ctx)
    attribs.style = cleanCss(original, ctx, found)
  }

  const html = sanitize(input, {
    allowedTags: ALLOWED_TAGS,
    allowVulnerableTags: true, // <style> is needed for mail layouts; its text is cleaned below
    // Style attributes are cleaned by rewriteStyleAttr (safe-css); sanitize-html would parse each one again with
    // postcss only to print it back unfiltered (no allowedStyles): most of its cost on a table-layout mail.
    parseStyleAttributes: false,
    disallowedTagsMode: 'discard',
    nonTextTags: DROP_WITH_CONTENT,
    allowedAttributes: {
      '*': LAYOUT_ATTRIBUTES,
      a: [...LAYOUT_ATTRIBUTES, 'href', 'name', 'target', 'rel'],
      img: [...LAYOUT_ATTRIBUTES, 'src', 'alt', 'srcset', 'sizes', 'hspace', 'vspace'],
      td: [...LAYOUT_ATTRIBUTES, 'background', 'headers', 'abbr'],
      th: [...LAYOUT_ATTRIBUTES, 'background', 'headers', 'abbr'],
      table: [...LAYOUT_ATTRIBUTES, 'background', 'frame', 'rules'],
      body: [...LAYOUT_ATTRIBUTES, 'background', 'link', 'vlink', 'alink', 'text'],
      col: [...LAYOUT_ATTRIBUTES, 'span'],
      colgroup: [...LAYOUT_ATTRIBUTES, 'span'],
      ol: [...LAYOUT_ATTRIBUTES, 'reversed'],
      time: [...LAYOUT_ATTRIBUTES, 'datetime'],
      style: ['type', 'media'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
    allowProtocolRelative: true,
    // sanitize-html runs a tag's own transform first, then '*'; only '*' touches style and background.
    transformTags: {
      html: (tagName, attribs) => ({
        tagName,
        attribs: Object.fromEntries(Object.entries(attribs).filter(([name]) => name === 'dir' || name === 'lang')),
      }),
      '*': (tagName, attribs) => {
        // data-remote-* are ours alone: a sender's own would be restored by "Show images".
        delete attribs['data-remote-style']
        delete attribs['data-remote-background']
        if (tagName !== 'img') {
          delete attribs['data-remote-src']
          delete attribs['data-remote-srcset']
        }
        rewriteStyleAttr(attribs)
        if (attribs.background !== undefined) {
          const bg = attribs.background.trim()
          delete attribs.background
          if (/^cid:/i.test(bg)) {
            const target = ctx.cidUrl(bg.slice(4))
            if (target) attribs.background = target
          } else if (REMOTE_URL.test(bg)) {
            found.remote = true
            attribs['data-remote-background'] = bg
          }
        }
        return { tagName, attribs }
      },
      a: (tagName, attribs) => {
        const href = (attribs.href ?? '').trim()
        const next: Record<string, string> = { ...attribs, target: '_blank', rel: 'noopener noreferrer' }
        if (href.startsWith('#')) delete next.href // in-frame anchors go nowhere useful and `target` would open blank tabs
        return { tagName, attribs: next }
      },
      img: (tagName, attribs) => {
        const next: Record<string, string> = { ...attribs }
        const src = (attribs.src ?? '').trim()
        delete next.src
        delete next.srcset
        delete next['data-remote-src']
        delete next['data-remote-srcset']
        if (/^cid:/i.test(src)) {
          const target = ctx.cidUrl(src.slice(4))
          if (target) next.src = target
        } else if (/^data:image\/(png|gif|jpe?g|webp|bmp)[;,]/i.test(src)) {
          next.src = src
        } else if (REMOTE_URL.test(src)) {
          found.remote = true
          next['data-remote-src'] = src
        }
        if (attribs.srcset) {
          found.remote = true
          next['data-remote-srcset'] = attribs.srcset
        }
        return { tagName, attribs: next }
      },
    },
  })

  return { html: cleanStyleBlocks(html, ctx, found, maxCssChars), hasRemoteContent: found.remote }
}

/**
 * Style blocks: sanitize-html keeps their text verbatim, so the CSS itself is cleaned here; the opt-in copy rides along
 * in an inert attribute for "Show images". sanitize-html's output closes every <style> it opens and escapes `>` inside
 * attribute values, so plain indexOf finds each block's parts.
 */
function cleanStyleBlocks(html: string, ctx: SanitizeContext, found: { remote: boolean }, maxCssChars: number): string {
  let out = ''
  let at = 0
  for (;;) {
    const open = html.indexOf('<style', at)
    if (open < 0) break
    const openEnd = html.indexOf('>', open)
    const close = openEnd < 0 ? -1 : html.indexOf('</style>', openEnd)
    if (close < 0) break
    const attrs = html.slice(open + 6, openEnd)
    const css = normalizeMailCss(html.slice(openEnd + 1, close))
    out += html.slice(at, open)
    if (css.length <= maxCssChars) {
      const remote = hasRemoteCssUrl(css)
      const safe = cleanCss(css, ctx, found)
      const optIn = remote ? ` data-remote-css="${escapeAttr(optInCss(css, ctx))}"` : ''
      out += `<style${attrs}${optIn}>${safe.replaceAll('</', '<\\/')}</style>`
    }
    at = close + 8
  }
  return out + html.slice(at)
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
