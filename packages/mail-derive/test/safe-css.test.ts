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
