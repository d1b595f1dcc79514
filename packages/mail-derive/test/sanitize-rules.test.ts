import { describe, expect, it } from 'vitest'
import { sanitizeMailHtml } from '../src/sanitize-html.js'

const ATTACHMENT = '/api/email/a%40b.test/messages/1/attachments/0'
const ctx = { cidUrl: (cid: string) => (cid === 'logo@x' ? ATTACHMENT : null) }
const sanitized = (html: string, maxCssChars?: number) => sanitizeMailHtml(html, ctx, maxCssChars)

/** One rule of sanitizeMailHtml per test, at its edge: what the reader's frame gets. */
describe('sanitizeMailHtml rules', () => {
  it('keeps a style attribute of exactly maxCssChars and drops a longer one', () => {
    expect(sanitized('<p style="color:red">x</p>', 9).html).toBe('<p style="color:red">x</p>')
    expect(sanitized('<p style="color:red">x</p>', 8).html).toBe('<p>x</p>')
  })

  it('keeps a style block of exactly maxCssChars and drops a longer one, text around it kept', () => {
    expect(sanitized('<style>p{color:red}</style><p>x</p>', 12).html).toBe('<style>p{color:red}</style><p>x</p>')
    expect(sanitized('<style>p{color:red}</style><p>x</p>', 11).html).toBe('<p>x</p>')
  })

  it("drops a sender's own data-remote-* attributes on every element, so Show images cannot restore them", () => {
    const { html, hasRemoteContent } = sanitized(
      '<div data-remote-style="background:url(https://t.test/s)" data-remote-background="https://t.test/b" data-remote-src="https://t.test/i" data-remote-srcset="https://t.test/x 1x" data-remote-css="a{}">d</div><img data-remote-src="https://t.test/i" data-remote-srcset="https://t.test/x 1x">',
    )
    expect(html).toBe('<div>d</div><img />')
    expect(hasRemoteContent).toBe(false)
  })

  it('points a cid: background at the attachment, drops an unknown or relative one, and parks a remote one (trimmed)', () => {
    const { html, hasRemoteContent } = sanitized(
      '<table background="cid:logo@x"><tr><td background="cid:nope">a</td><th background="bg.png">b</th><td background="  https://t.test/c  ">c</td></tr></table>',
    )
    expect(html).toBe(`<table background="${ATTACHMENT}"><tr><td>a</td><th>b</th><td data-remote-background="https://t.test/c">c</td></tr></table>`)
    expect(hasRemoteContent).toBe(true)
  })

  it('reports remote content for a remote background alone', () => {
    expect(sanitized('<table><tr><td background="https://t.test/bg">x</td></tr></table>').hasRemoteContent).toBe(true)
    expect(sanitized('<table background="cid:logo@x"><tr><td>x</td></tr></table>').hasRemoteContent).toBe(false)
  })

  it('drops the target of in-frame anchors (#…) but keeps other links', () => {
    expect(sanitized('<a href="#top">t</a><a href=" #x">u</a><a href="/rel">r</a>').html).toBe(
      '<a target="_blank" rel="noopener noreferrer">t</a><a target="_blank" rel="noopener noreferrer">u</a><a href="/rel" target="_blank" rel="noopener noreferrer">r</a>',
    )
  })

  it('keeps inline images of raster types only (no SVG), whatever the case of the scheme', () => {
    const { html } = sanitized(
      '<img src="data:image/svg+xml;base64,PHN2Zz4="><img src="data:image/pngx"><img src="data:image/jpeg,AA"><img src="data:image/jpg;base64,AA"><img src="data:image/webp;base64,AA"><img src="DATA:IMAGE/BMP;base64,AA"><img src="data:image/gif;x">',
    )
    expect(html).toBe(
      '<img /><img /><img src="data:image/jpeg,AA" /><img src="data:image/jpg;base64,AA" /><img src="data:image/webp;base64,AA" /><img src="DATA:IMAGE/BMP;base64,AA" /><img src="data:image/gif;x" />',
    )
  })

  it('parks a srcset without src and reports it', () => {
    expect(sanitized('<img srcset="https://t.test/a.png 1x">')).toEqual({ html: '<img data-remote-srcset="https://t.test/a.png 1x" />', hasRemoteContent: true })
  })

  it('parks a remote url() of a style attribute, keeping the rest of the style', () => {
    expect(sanitized('<div style="color:red;background:url(https://t.test/a)">x</div>')).toEqual({
      html: '<div style="color:red;background:none" data-remote-style="color:red;background:url(&quot;https://t.test/a&quot;)">x</div>',
      hasRemoteContent: true,
    })
  })

  it('keeps inline data images in CSS with their quotes escaped, so the url() cannot be closed early', () => {
    expect(sanitized('<p style="background:url(data:image/png;base64,AA&quot;x)">a</p>').html).toBe(
      '<p style="background:url(&quot;data:image/png;base64,AA%22x&quot;)">a</p>',
    )
  })

  it("blocks Internet Explorer's filters", () => {
    const { html } = sanitized('<p style="-ms-filter: x; filter: progid:DXImage; color:red">a</p><style>p{filter:progid:Y}</style>')
    expect(html).not.toMatch(/-ms-filter|progid/i)
    expect(html).toContain('color:red')
  })

  it('resolves every kind of url() in a style attribute, in the safe copy and in the opt-in copy', () => {
    const { html } = sanitized('<p style="background:url(cid:logo@x), url(https://t.test/r), url(data:image/png;base64,AA), url(rel.png), url(cid:nope)">a</p>')
    expect(html).toBe(
      `<p style="background:url(&quot;${ATTACHMENT}&quot;), none, url(&quot;data:image/png;base64,AA&quot;), none, none" data-remote-style="background:url(&quot;${ATTACHMENT}&quot;), url(&quot;https://t.test/r&quot;), url(&quot;data:image/png;base64,AA&quot;), none, none">a</p>`,
    )
  })

  it('resolves every kind of url() in a style block, in the safe copy and in the opt-in copy', () => {
    const { html, hasRemoteContent } = sanitized(
      '<style>.a{background:url(cid:logo@x)} .b{background:url(https://t.test/q)} .c{background:url(cid:nope)} .d{background:url(data:image/png;base64,QQ)} .e{background:url(rel.png)}</style>',
    )
    expect(hasRemoteContent).toBe(true)
    expect(html).toBe(
      `<style data-remote-css=".a{background:url(&quot;${ATTACHMENT}&quot;)} .b{background:url(&quot;https://t.test/q&quot;)} .c{background:none} .d{background:url(&quot;data:image/png;base64,QQ&quot;)} .e{background:none}">` +
        `.a{background:url("${ATTACHMENT}")} .b{background:none} .c{background:none} .d{background:url("data:image/png;base64,QQ")} .e{background:none}</style>`,
    )
  })

  it("keeps a style block's type and media, and escapes the opt-in copy as an attribute value", () => {
    expect(sanitized('<style type="text/css" media="screen">a{b:url(https://t.test/&<>")}</style>').html).toBe(
      '<style type="text/css" media="screen" data-remote-css="a{b:url(&quot;https://t.test/&amp;&lt;&gt;%22&quot;)}">a{b:none}</style>',
    )
  })

  it('cleans every style block and keeps what lies between and after them', () => {
    expect(sanitized('<style>a{b:url(https://t.test/1)}</style><p>between</p><style>c{d:url(https://t.test/2)}</style>tail').html).toBe(
      '<style data-remote-css="a{b:url(&quot;https://t.test/1&quot;)}">a{b:none}</style><p>between</p><style data-remote-css="c{d:url(&quot;https://t.test/2&quot;)}">c{d:none}</style>tail',
    )
  })

  it('blocks a dangerous CSS word without joining what was around it into another', () => {
    const { html } = sanitized('<p style="width:expjavascript:ression(alert(1))">a</p><style>p{width:expvbscript:ression(1)}</style>')
    expect(html).not.toMatch(/expression\s*\(/i)
  })

  it('reads cid: and data:image only at the start of a url(), so a remote url naming them is still remote', () => {
    const { html, hasRemoteContent } = sanitized('<p style="background:url(https://t.test/data:image/x.png)">a</p><div style="background:url(https://t.test/?cid:logo@x)">b</div>')
    expect(hasRemoteContent).toBe(true)
    expect(html).toContain('<p style="background:none"')
    expect(html).toContain('<div style="background:none"')
    expect(sanitized('<div style="background:url(https://t.test/?cid:logo@x)">b</div>').hasRemoteContent).toBe(true)
    // The opt-in copy keeps a relative url naming them as none: it would load from our own origin.
    expect(sanitized('<p style="background:url(/s/data:image/x), url(xxxxlogo@x), url(https://t.test/r)">a</p>').html).toContain(
      'data-remote-style="background:none, none, url(&quot;https://t.test/r&quot;)"',
    )
  })

  it('reports no remote content for ordinary mail', () => {
    expect(sanitized('<p style="color:red">ordinary</p><style>p{color:blue}</style><img src="cid:logo@x">')).toEqual({
      html: `<p style="color:red">ordinary</p><style>p{color:blue}</style><img src="${ATTACHMENT}" />`,
      hasRemoteContent: false,
    })
  })

  it('keeps a cid: image reference exactly as resolved and drops an unknown one', () => {
    expect(sanitized('<img src=" cid:logo@x "><img src="CID:logo@x"><img src="cid:nope">').html).toBe(`<img src="${ATTACHMENT}" /><img src="${ATTACHMENT}" /><img />`)
  })

  it('keeps http:, https:, mailto: and tel: links and protocol-relative ones, each opening a new tab; drops every other scheme', () => {
    const tab = 'target="_blank" rel="noopener noreferrer"'
    expect(
      sanitized(
        '<a href="http://t.test/h">h</a><a href="tel:+15551234">t</a><a href="//t.test/p">p</a><a href="\\\\t.test/b">b</a><a href="javascript:alert(1)">j</a><a href="ftp://t.test/f">f</a><a href="data:text/html,x">d</a>',
      ),
    ).toEqual({
      html:
        `<a href="http://t.test/h" ${tab}>h</a><a href="tel:+15551234" ${tab}>t</a><a href="//t.test/p" ${tab}>p</a><a href="\\\\t.test/b" ${tab}>b</a>` +
        `<a ${tab}>j</a><a ${tab}>f</a><a ${tab}>d</a>`,
      hasRemoteContent: false,
    })
  })

  it('parks http: images, backgrounds and CSS urls like https: ones, and reports them', () => {
    expect(
      sanitized('<img src="http://t.test/h.png"><table background="http://t.test/bg.png"><tr><td style="background:url(http://t.test/s.png)">x</td></tr></table>'),
    ).toEqual({
      html: '<img data-remote-src="http://t.test/h.png" /><table data-remote-background="http://t.test/bg.png"><tr><td style="background:none" data-remote-style="background:url(&quot;http://t.test/s.png&quot;)">x</td></tr></table>',
      hasRemoteContent: true,
    })
  })

  it('reads an address as remote only when it starts with http(s):// or //, so javascript:// and a relative path with // in it are dropped, not parked', () => {
    expect(
      sanitized(
        '<img src="javascript://%0Aalert(1)"><img src="images//a.png"><table background="javascript://x"><tr><td background="bg//b.png" style="background:url(rel//x.png)">a</td></tr></table><style>a{b:url(javascript://x)}</style>',
      ),
    ).toEqual({
      html: '<img /><img /><table><tr><td style="background:none">a</td></tr></table><style>a{b:none}</style>',
      hasRemoteContent: false,
    })
  })

  it('reads cid: and data:image/ only at the start of an image or background address, so a remote one naming them is parked', () => {
    expect(
      sanitized(
        '<img src="https://t.test/cid:logo@x"><img src="https://t.test/x/data:image/png;base64,AA"><table background="https://t.test/cid:logo@x"><tr><td>a</td></tr></table>',
      ),
    ).toEqual({
      html: '<img data-remote-src="https://t.test/cid:logo@x" /><img data-remote-src="https://t.test/x/data:image/png;base64,AA" /><table data-remote-background="https://t.test/cid:logo@x"><tr><td>a</td></tr></table>',
      hasRemoteContent: true,
    })
  })

  it('blocks expression, behavior and progid filters with blanks before their parenthesis or colon', () => {
    const { html } = sanitized(
      '<p style="width: expression (alert(1)); behavior : url(x.htc); filter : progid:DXImage.x; color:red">a</p><style>p{behaviour\t:url(y.htc);filter :  progid:Z; width:expression\n(1)}</style>',
    )
    expect(html).toBe('<p style="width: blocked:alert(1)); blocked: none; blocked::DXImage.x; color:red">a</p><style>p{blocked:none;blocked::Z; width:blocked:1)}</style>')
  })

  it('blocks a dangerous CSS word in the "Show images" copy too, without joining what was around it into another', () => {
    const { html } = sanitized(
      '<p style="background:url(https://t.test/a);width:expjavascript:ression(1)">a</p><style>p{background:url(https://t.test/b);width:expvbscript:ression(1)}</style>',
    )
    expect(html).toBe(
      '<p style="background:none;width:expblocked:ression(1)" data-remote-style="background:url(&quot;https://t.test/a&quot;);width:expblocked:ression(1)">a</p>' +
        '<style data-remote-css="p{background:url(&quot;https://t.test/b&quot;);width:expblocked:ression(1)}">p{background:none;width:expblocked:ression(1)}</style>',
    )
  })

  it("writes </ inside a style block's text as <\\/, which CSS reads the same and HTML cannot read as an end tag", () => {
    expect(sanitized('<style>p::after{content:"</b>"}</style><p>x</p>').html).toBe('<style>p::after{content:"<\\/b>"}</style><p>x</p>')
  })
})
