import { describe, expect, it } from 'vitest'
import { buildMailDocument, mailDocumentCsp } from '../src/mail-document.js'
import { sanitizeMailHtml } from '../src/sanitize-html.js'
import { HOSTILE_HTML, unsafeParts } from './fixtures/hostile-html.js'

const attachments = 'https://tempbox.example/api/email/a%40b.test/messages/1/attachments/'
const ctx = { cidUrl: (cid: string) => (cid === 'logo@x' ? '/api/email/a%40b.test/messages/1/attachments/0' : null) }
/** The mail as the server serves it: sanitized at ingest, made a document at read. */
const served = (html: string, showRemote: boolean) => buildMailDocument(sanitizeMailHtml(html, ctx).html, { showRemote })
/** What follows our own head: the mail. */
const mailPart = (doc: string) => doc.slice(doc.indexOf('</head>'))
const PREFIX = '<!doctype html><html><head><meta charset="utf-8"><base target="_blank"><style>body{margin:0;'

describe('mailDocumentCsp', () => {
  it('forbids scripts and every load of ours but this message\'s attachments; the web only after Show images', () => {
    const blocked = mailDocumentCsp(attachments, false)
    expect(blocked.split('; ')).toEqual([
      "default-src 'none'",
      `img-src data: ${attachments}`,
      "style-src 'unsafe-inline'",
      'font-src data:',
      "form-action 'none'",
      "base-uri 'none'",
      "frame-ancestors 'self'",
      'sandbox allow-same-origin allow-popups allow-popups-to-escape-sandbox',
    ])
    expect(mailDocumentCsp(attachments, true)).toContain(`img-src data: ${attachments} https: http:;`)
    expect(mailDocumentCsp(attachments, true)).not.toMatch(/script-src|allow-scripts/)
  })
})

describe('buildMailDocument', () => {
  it('wraps the mail in our head (charset, links to new tabs, frame styles) before any mail content', () => {
    const doc = served('<html dir="rtl" lang="ar"><head><style>p{color:red}</style></head><body bgcolor="#fff"><p>Hi<br>there</p></body></html>', false)
    expect(doc.startsWith(PREFIX)).toBe(true)
    // The mail's own <html> (direction and language only) and <body> follow: the browser moves their attributes onto ours.
    expect(mailPart(doc)).toBe('</head><html dir="rtl" lang="ar"><style>p{color:red}</style><body bgcolor="#fff"><p>Hi<br>there</p></body></html></html>')
  })

  for (const [name, html] of Object.entries(HOSTILE_HTML)) {
    it(`stays safe for ${name}, with and without Show images`, () => {
      expect(unsafeParts(mailPart(served(html, false)))).toEqual([])
      // With images shown, remote images may load (the reader asked): nothing may run, submit or navigate.
      expect(unsafeParts(mailPart(served(html, true))).filter((part) => !part.startsWith('remote'))).toEqual([])
    })
  }

  it('keeps text and attribute values as the sanitizer escaped them', () => {
    const doc = served('<p title="a &quot;b&quot; &lt;c&gt;">1 &lt; 2 &amp;&amp; <b>&lt;script&gt;</b></p>', false)
    expect(doc).toContain('<p title="a &quot;b&quot; &lt;c&gt;">1 &lt; 2 &amp;&amp; <b>&lt;script&gt;</b></p>')
  })

  it('restores remote references only when asked, and never ships the parked copies', () => {
    const html =
      '<img src="https://t.example/a.png" srcset="https://t.example/b.png 2x">' +
      '<table background="https://t.example/bg.png"><tr><td>T</td></tr></table>' +
      '<div style="color:red;background-image:url(https://t.example/c.png)">D</div>'
    const blocked = served(html, false)
    expect(blocked).not.toContain('t.example')
    expect(blocked).not.toContain('data-remote')
    expect(blocked).toContain('<div style="color:red;background-image:none">D</div>')

    const shown = served(html, true)
    expect(shown).not.toContain('data-remote')
    expect(shown).toContain('<img src="https://t.example/a.png" srcset="https://t.example/b.png 2x">')
    expect(shown).toContain('<table background="https://t.example/bg.png">')
    expect(shown).toContain('<div style="color:red;background-image:none;color:red;background-image:url(&quot;https://t.example/c.png&quot;)">D</div>')
  })

  describe('remote CSS in <style> blocks', () => {
    const remote = 'https://track.example/css.png'
    const html = `<style>.x{background:url("${remote}")}</style><div class="x">Banner</div><style>.y{background:url(${remote}?b)}</style>`

    it('keeps it out until Show images', () => {
      const doc = served(html, false)
      expect(doc).not.toContain('track.example')
      expect(doc).not.toContain('data-remote-css')
      expect(doc).toContain('<style>.x{background:none}</style><div class="x">Banner</div><style>.y{background:none}</style>')
    })

    it('restores it with Show images', () => {
      const doc = served(html, true)
      expect(doc).not.toContain('data-remote-css')
      expect(doc).toContain(`<style>.x{background:url("${remote}")}</style><div class="x">Banner</div><style>.y{background:url("${remote}?b")}</style>`)
    })

    it('cannot close the <style> early from the restored CSS', () => {
      const sneaky = `<style data-remote-css="a{background:url(${remote})}&lt;/style&gt;&lt;img src=x onerror=top.__pwned=1&gt;"></style><p>Hi</p>`
      const doc = buildMailDocument(sneaky, { showRemote: true })
      expect(mailPart(doc)).toBe(`</head><style>a{background:url(${remote})}<\\/style><img src=x onerror=top.__pwned=1></style><p>Hi</p></html>`)
    })
  })

  it('keeps cid images, which point at this message\'s attachments', () => {
    expect(served('<img src="cid:logo@x" alt="logo">', false)).toContain(' src="/api/email/a%40b.test/messages/1/attachments/0"')
  })
})
