import { describe, expect, it } from 'vitest'
import { sanitizeMailHtml } from '../src/sanitize-html.js'
import { normalizeMailCss } from '../src/safe-css.js'

const ATTACHMENT = '/api/email/a%40b.test/messages/1/attachments/0'
const ctx = { cidUrl: (cid: string) => (cid === 'logo@x' ? ATTACHMENT : null) }

/** Every place a loadable reference can hide in CSS that a browser would follow: none may survive sanitizing. */
const HOSTILE_CSS: Record<string, string> = {
  'image-set with a bare string': '.a{background-image:image-set("/s/AbCdEfGh" 1x)}',
  'prefixed image-set': '.a{background-image:-webkit-image-set("/s/AbCdEfGh" 1x, "/s/AbCdEfGh" 2x)}',
  'image-set split by a comment': '.a{background:image-set(/**/"/s/AbCdEfGh" 1x)}',
  'image-set name with an escape': '.a{background:imag\\65-set("/s/AbCdEfGh" 1x)}',
  'cross-fade with strings': '.a{background:cross-fade("/s/AbCdEfGh", "/s/AbCdEfGh" 50%)}',
  'src() function': '.a{background:src("/s/AbCdEfGh")}',
  'url spelled with a hex escape': '.a{background:\\75 rl(/s/AbCdEfGh)}',
  'url spelled with hex escapes throughout': '.a{background:\\000075\\72\\6c(/s/AbCdEfGh)}',
  'url spelled with a plain escape': '.a{background:u\\rl(/s/AbCdEfGh)}',
  'escaped path inside url()': '.a{background:url(\\2f s\\2f AbCdEfGh)}',
  'relative same-origin url()': '.a{list-style-image:url("/s/AbCdEfGh")}',
  'same-origin api path': '.a{cursor:url(/api/links?codes=AbCdEfGh),auto}',
  '@import with a string': '@import "/s/AbCdEfGh";',
  '@import with an escaped name': '@\\69mport url(/s/AbCdEfGh);',
  'font-face source': '@font-face{font-family:x;src:url(/s/AbCdEfGh)}',
  'comment inside url()': '.a{background:url(/**/"/s/AbCdEfGh")}',
}

describe('mail CSS reduced to a safe subset', () => {
  for (const [name, css] of Object.entries(HOSTILE_CSS)) {
    it(`drops ${name} (style block and style attribute)`, () => {
      const block = sanitizeMailHtml(`<style>${css}</style><p class="a">x</p>`, ctx)
      const inline = sanitizeMailHtml(`<p style='${css.replace(/^\.a\{|\}$/g, '')}'>x</p>`, ctx)
      for (const { html, hasRemoteContent } of [block, inline]) {
        expect(html).not.toMatch(/AbCdEfGh/i)
        expect(hasRemoteContent).toBe(false)
      }
    })
  }

  it('keeps remote images in the opt-in copy only, decoded so the browser and we read the same url', () => {
    const { html, hasRemoteContent } = sanitizeMailHtml('<style>.a{background:\\75rl(https://track.example/x.png)}</style>', ctx)
    expect(hasRemoteContent).toBe(true)
    expect(html).toContain('<style data-remote-css=".a{background:url(&quot;https://track.example/x.png&quot;)}">.a{background:none}</style>')
  })

  it('keeps cid: images pointing at the message\'s own attachment, even when escaped', () => {
    const { html } = sanitizeMailHtml('<div style="background:\\75rl(cid:logo@x)">x</div>', ctx)
    expect(html).toContain(`background:url(&quot;${ATTACHMENT}&quot;)`)
  })

  it('keeps ordinary CSS as it was, including escaped characters in content strings', () => {
    expect(normalizeMailCss('td{padding:4px;color:#fff} .q::before{content:"\\201C"}')).toBe('td{padding:4px;color:#fff} .q::before{content:"“"}')
    expect(normalizeMailCss('.b{background-image:linear-gradient(red,blue)}')).toBe('.b{background-image:linear-gradient(red,blue)}')
  })

  it('never lets an escape close a string or the style element', () => {
    expect(normalizeMailCss('.a{content:"\\22 } .b{x:y}"}')).toBe('.a{content:"\\22 } .b{x:y}"}')
    const { html } = sanitizeMailHtml('<style>.a{content:"\\3c/style><img src=x onerror=alert(1)>"}</style>', ctx)
    expect(html).not.toContain('</style><img')
  })
})

/** One rule of normalizeMailCss per test: what the sanitizer's url() rewriting gets to read. */
describe('normalizeMailCss', () => {
  it('turns each comment into a space; an unclosed one runs to the end', () => {
    expect(normalizeMailCss('a/**/b/* x */c')).toBe('a b c')
    expect(normalizeMailCss('p{color:red}/* url(https://t.test/x)')).toBe('p{color:red} ')
    expect(normalizeMailCss('/**/')).toBe(' ')
    // The opener's star does not close it: `/*/` is still open.
    expect(normalizeMailCss('a/*/b*/c')).toBe('a c')
  })

  it('decodes a hex escape of up to six digits and the one blank that ends it', () => {
    expect(normalizeMailCss('\\75 rl')).toBe('url')
    expect(normalizeMailCss('\\000075rl')).toBe('url')
    expect(normalizeMailCss('\\0000751')).toBe('u1')
    expect(normalizeMailCss('\\75\trl \\75\nrl \\75\r\nrl \\75\frl')).toBe('url url url url')
    expect(normalizeMailCss('\\75  rl')).toBe('u rl')
    // CR LF counts as one blank, a lone CR as one; what follows either stays.
    expect(normalizeMailCss('\\41\rB \\41\r\nB \\41\r\rB')).toBe('AB AB A\rB')
    expect(normalizeMailCss('\\41 \nB \\41x\ny')).toBe('A\nB Ax\ny')
    expect(normalizeMailCss('\\41\\42 C')).toBe('ABC')
  })

  it('decodes a hex escape in capitals', () => {
    expect(normalizeMailCss('\\4A\\4b')).toBe('JK')
  })

  it('reads a zero, out-of-range or surrogate escape as U+FFFD', () => {
    expect(normalizeMailCss('a\\0 b\\110000 c\\d800 d\\dfff e\\10ffff f')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\u{10FFFF}f')
  })

  it('decodes an escaped space to a space (the first character that changes nothing)', () => {
    expect(normalizeMailCss('a\\20 b\\ c\\1f d')).toBe('a b c\\1f d')
  })

  it('decodes an escaped ordinary character to itself, astral ones whole', () => {
    expect(normalizeMailCss('u\\rl \\(x\\) \\😀!')).toBe('url (x) 😀!')
  })

  it('drops an escaped line break and a backslash at the very end', () => {
    expect(normalizeMailCss('"a\\\nb\\\r\\\fc"\\')).toBe('"abc"')
  })

  it('writes characters that would change the text around them back as hex escapes', () => {
    expect(normalizeMailCss('\\22 \\27 \\5c \\3c \\3e \\7f \\1f \\9')).toBe('\\22 \\27 \\5c \\3c \\3e \\7f \\1f \\9 ')
    expect(normalizeMailCss('\\"\\\'\\\\\\<\\>')).toBe('\\22 \\27 \\5c \\3c \\3e ')
  })

  it('leaves CSS without a backslash untouched', () => {
    expect(normalizeMailCss('td{padding:4px} a:hover{color:blue}')).toBe('td{padding:4px} a:hover{color:blue}')
  })

  it('makes each image function that takes a plain string none, arguments and nesting included', () => {
    expect(normalizeMailCss('.a{background:image-set("x" 1x) red}')).toBe('.a{background:none red}')
    expect(normalizeMailCss('.a{b:-webkit-image-set(url(x) 1x, "y" 2x);c:d}')).toBe('.a{b:none;c:d}')
    expect(normalizeMailCss('.a{b:cross-fade("x", "y" 50%)} .b{c:IMAGE("z")} .c{d:src("w")} .d{e:element(#id)}')).toBe('.a{b:none} .b{c:none} .c{d:none} .d{e:none}')
    expect(normalizeMailCss('image-set ("x")')).toBe('none')
  })

  it('runs an unclosed image function to the end', () => {
    expect(normalizeMailCss('.a{b:image-set("x" 1x;c:d}')).toBe('.a{b:none')
  })

  it('leaves names that only end in an image function alone', () => {
    expect(normalizeMailCss('.a{b:my-image(x);c:fooimage(y);d:x_src(z);e:v2image(w)}')).toBe('.a{b:my-image(x);c:fooimage(y);d:x_src(z);e:v2image(w)}')
  })

  it('drops every image function in a row, and one inside another once', () => {
    expect(normalizeMailCss('a{b:image("x"),image("y")} c{d:image-set(image("z") 1x) e}')).toBe('a{b:none,none} c{d:none e}')
  })
})
