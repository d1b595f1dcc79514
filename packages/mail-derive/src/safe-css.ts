/**
 * Brings a mail's CSS to a form where every resource it can load is spelled `url(` in plain text, so the sanitizer's
 * `url()` rewriting sees them all: comments go, escapes are decoded (`u\72l(` is `url(`), and the functions that
 * take a bare string as an image (`image-set("/s/abc" 1x)`, `cross-fade`, `src()`, `image()`) stop being functions.
 * One pass over the text, no backtracking: cost grows linearly with the CSS.
 */
export function normalizeMailCss(css: string): string {
  return neutralizeStringImageFunctions(decodeEscapes(stripComments(css)))
}

/** Comments split tokens (`image-set(/**\/"x" 1x)`); an unclosed one runs to the end, as in CSS. */
function stripComments(css: string): string {
  let out = ''
  let i = 0
  for (;;) {
    const start = css.indexOf('/*', i)
    if (start === -1) return out + css.slice(i)
    out += css.slice(i, start) + ' '
    const end = css.indexOf('*/', start + 2)
    if (end === -1) return out
    i = end + 2
  }
}

const HEX = /[0-9a-fA-F]/

/**
 * Replaces every escape by the character it stands for. A character that would change the meaning of the text
 * around it once unescaped (quotes, backslash, line breaks, `<`, control characters) is written back as a hex
 * escape, which spells nothing.
 */
function decodeEscapes(css: string): string {
  if (!css.includes('\\')) return css
  let out = ''
  let i = 0
  while (i < css.length) {
    const ch = css[i]!
    if (ch !== '\\') {
      out += ch
      i++
      continue
    }
    const next = css[i + 1]
    if (next === undefined) {
      i++ // a lone backslash at the end means nothing
      continue
    }
    if (next === '\n' || next === '\r' || next === '\f') {
      // Escaped newline: a line continuation inside a string, nothing elsewhere.
      i += 2
      continue
    }
    let code: number
    if (HEX.test(next)) {
      let j = i + 1
      while (j < css.length && j < i + 7 && HEX.test(css[j]!)) j++
      code = parseInt(css.slice(i + 1, j), 16)
      if (css[j] === '\r' && css[j + 1] === '\n') j += 2
      else if (css[j] === ' ' || css[j] === '\t' || css[j] === '\n' || css[j] === '\r' || css[j] === '\f') j++
      i = j
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) code = 0xfffd
    } else {
      code = next.codePointAt(0)!
      i += next.length === 1 && code > 0xffff ? 3 : 2
    }
    out += keepsMeaning(code) ? String.fromCodePoint(code) : `\\${code.toString(16)} `
  }
  return out
}

function keepsMeaning(code: number): boolean {
  if (code < 0x20 || code === 0x7f) return false
  return !'"\'\\<>'.includes(String.fromCodePoint(code))
}

/**
 * Image functions whose arguments may be plain strings naming a URL: each call, arguments and all, becomes `none`
 * (an unclosed one runs to the end, as in CSS).
 */
const STRING_IMAGE_FUNCTIONS = /(^|[^a-z0-9_-])(?:-[a-z]+-)?(?:image-set|cross-fade|image|src|element)\s*\(/gi

function neutralizeStringImageFunctions(css: string): string {
  let out = ''
  let i = 0
  STRING_IMAGE_FUNCTIONS.lastIndex = 0
  for (let m = STRING_IMAGE_FUNCTIONS.exec(css); m; m = STRING_IMAGE_FUNCTIONS.exec(css)) {
    if (m.index < i) continue // inside a call already dropped
    out += css.slice(i, m.index) + m[1] + 'none'
    let depth = 1
    let j = m.index + m[0].length
    for (; j < css.length && depth > 0; j++) {
      if (css[j] === '(') depth++
      else if (css[j] === ')') depth--
    }
    i = j
    STRING_IMAGE_FUNCTIONS.lastIndex = j
  }
  return out + css.slice(i)
}
