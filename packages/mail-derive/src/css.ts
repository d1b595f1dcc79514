/**
 * Linear CSS cleaning for mail: every function here walks its input once with indexOf, because the regular expressions
 * it replaces (`url\(.*?\)`, `@import[^;]*`) rescan the rest of the input from each unclosed `url(` or `@import`.
 */

export interface CssUrlRewrite {
  /** Replacement for one `url(...)`, given its trimmed, unquoted content. */
  (url: string): string
}

/** Rewrites every `url(...)` of `css` (quoted or not). An unclosed `url(` swallows the rest, as it does in browsers. */
export function mapCssUrls(css: string, rewrite: CssUrlRewrite): string {
  const lower = css.toLowerCase()
  let out = ''
  let at = 0
  for (;;) {
    const start = lower.indexOf('url(', at)
    if (start < 0) break
    out += css.slice(at, start)
    let i = start + 4
    while (i < css.length && isSpace(css[i]!)) i++
    const quote = css[i] === '"' || css[i] === "'" ? css[i]! : ''
    let contentEnd: number
    let close: number
    if (quote) {
      contentEnd = css.indexOf(quote, i + 1)
      close = contentEnd < 0 ? -1 : css.indexOf(')', contentEnd + 1)
      i++
    } else {
      close = css.indexOf(')', i)
      contentEnd = close
    }
    if (contentEnd < 0 || close < 0) {
      out += rewrite(css.slice(i, contentEnd < 0 ? css.length : contentEnd).trim())
      return out
    }
    out += rewrite(css.slice(i, contentEnd).trim())
    at = close + 1
  }
  return out + css.slice(at)
}

/** Whether any `url(...)` of `css` satisfies `test`. */
export function someCssUrl(css: string, test: (url: string) => boolean): boolean {
  let found = false
  mapCssUrls(css, (url) => {
    if (!found && test(url)) found = true
    return ''
  })
  return found
}

/** Removes `@import` rules (up to their `;`, or to the end when there is none). */
export function dropImports(css: string): string {
  const lower = css.toLowerCase()
  let out = ''
  let at = 0
  for (;;) {
    const start = lower.indexOf('@import', at)
    if (start < 0) break
    out += css.slice(at, start)
    const semicolon = css.indexOf(';', start)
    if (semicolon < 0) return out
    at = semicolon + 1
  }
  return out + css.slice(at)
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f'
}
