import { describe, expect, it } from 'vitest'
import { sanitizeMailHtml } from '../src/sanitize-html.js'
import { activeParts } from './active-parts.js'
import { HOSTILE_HTML, unsafeParts } from './fixtures/hostile-html.js'

const ctx = { cidUrl: (cid: string) => (cid.replace(/^<|>$/g, '') === 'logo@x' ? '/api/email/a%40b.test/messages/1/attachments/0' : null) }

describe('sanitizeMailHtml', () => {
  for (const [name, html] of Object.entries(HOSTILE_HTML)) {
    it(`neutralizes ${name}`, () => {
      const out = sanitizeMailHtml(html, ctx).html
      expect(unsafeParts(out), out).toEqual([])
      expect(activeParts(out), out).toEqual([])
    })
  }

  it('opens links in a new tab without opener or referrer', () => {
    const { html } = sanitizeMailHtml('<a href="https://example.com/x" target="_self" rel="opener">x</a><a href="mailto:a@b.test">m</a>', ctx)
    expect(html).toBe(
      '<a href="https://example.com/x" target="_blank" rel="noopener noreferrer">x</a><a href="mailto:a@b.test" target="_blank" rel="noopener noreferrer">m</a>',
    )
  })

  it('blocks remote images by default and keeps them for "Show images"', () => {
    const { html, hasRemoteContent } = sanitizeMailHtml(HOSTILE_HTML.remoteResources!, ctx)
    expect(hasRemoteContent).toBe(true)
    expect(html).toContain('<img data-remote-src="https://track.example/open.gif?u=1" data-remote-srcset="https://track.example/a.png 1x, https://track.example/b.png 2x" />')
    expect(html).toContain('data-remote-background="https://track.example/bg.png"')
    expect(html).toContain('style="background-image:none"')
    expect(html).toContain(`data-remote-style="background-image:url(&quot;https://track.example/td.png&quot;)"`)
    expect(html).toContain('data-remote-css=".x{background:url(&quot;https://track.example/css.png&quot;)}"')
    expect(html).toContain('<img data-remote-src="//track.example/proto.gif" />')
  })

  it('keeps inline data images and points cid: references at the attachment', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo='
    const { html, hasRemoteContent } = sanitizeMailHtml(
      `<img src="cid:logo@x" alt="Logo"><img src="${png}"><div style="background:url(cid:logo@x)">x</div><img src="cid:missing">`,
      ctx,
    )
    expect(hasRemoteContent).toBe(false)
    expect(html).toContain('<img alt="Logo" src="/api/email/a%40b.test/messages/1/attachments/0" />')
    expect(html).toContain(`<img src="${png}" />`)
    expect(html).toContain('background:url(&quot;/api/email/a%40b.test/messages/1/attachments/0&quot;)')
    expect(html).toContain('<img />')
  })

  it('keeps the layout of ordinary mail', () => {
    const mail =
      '<html><head><style>td{padding:4px} .btn{color:#fff}</style></head><body bgcolor="#eee"><table width="600" cellpadding="0" align="center"><tr><td class="btn" style="color:red;font-size:14px"><h1>Welcome</h1><p>Hi <b>Ann</b></p></td></tr></table></body></html>'
    const { html } = sanitizeMailHtml(mail, ctx)
    expect(html).toContain('<style>td{padding:4px} .btn{color:#fff}</style>')
    expect(html).toContain('<table width="600" cellpadding="0" align="center">')
    expect(html).toContain('<td class="btn" style="color:red;font-size:14px"><h1>Welcome</h1><p>Hi <b>Ann</b></p></td>')
  })

  it("keeps a mail's own direction and language from <html>, and nothing else of it", () => {
    const { html } = sanitizeMailHtml('<html dir="rtl" lang="ar" style="background:red" onload="x()"><body><p>مرحبا</p></body></html>', ctx)
    expect(html).toBe('<html dir="rtl" lang="ar"><body><p>مرحبا</p></body></html>')
  })
})
