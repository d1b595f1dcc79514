import { describe, expect, it } from 'vitest'
import { buildMailDocument, mailCsp } from './mail-document'

const origin = 'https://tempbox.example'
const attachments = `${origin}/api/email/a%40b.test/messages/1/attachments/`

function bodyOf(srcdoc: string): Document {
  return new DOMParser().parseFromString(srcdoc, 'text/html')
}

describe('mailCsp', () => {
  it('forbids script and remote loads unless images are shown', () => {
    expect(mailCsp(attachments, false)).toBe(`default-src 'none'; img-src data: ${attachments}; style-src 'unsafe-inline'; font-src data:; form-action 'none'`)
    expect(mailCsp(attachments, true)).toContain(`img-src data: ${attachments} https: http:;`)
    expect(mailCsp(attachments, true)).not.toContain('script-src')
  })
})

describe('buildMailDocument', () => {
  it('puts the CSP meta first, before any mail content', () => {
    const doc = buildMailDocument('<html><head><style>p{color:red}</style></head><body><p>Hi</p></body></html>', { attachments, showRemote: false })
    expect(doc.startsWith('<!doctype html><html><head><meta http-equiv="Content-Security-Policy"')).toBe(true)
    const parsed = bodyOf(doc)
    expect(parsed.head.firstElementChild?.getAttribute('http-equiv')).toBe('Content-Security-Policy')
    expect(parsed.querySelector('style')?.textContent).toContain('margin:0')
    expect(parsed.body.innerHTML).toBe('<p>Hi</p>')
  })

  it('strips what the server should already have stripped (defence in depth)', () => {
    const hostile = [
      '<script>top.__pwned = 1</script>',
      '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onerror="top.__pwned=1">',
      '<a href="javascript:top.__pwned=1">x</a>',
      '<svg><script>top.__pwned=1</script></svg>',
      '<form action="https://evil.example"><input name="p"><button>Go</button></form>',
      '<meta http-equiv="refresh" content="0;url=https://evil.example">',
      '<base href="https://evil.example/">',
      '<iframe src="https://evil.example"></iframe>',
      '<object data="x.swf"></object>',
    ].join('')
    const doc = buildMailDocument(hostile, { attachments, showRemote: true })
    const parsed = bodyOf(doc)
    expect(doc).not.toMatch(/__pwned=1"|<script|onerror|javascript:/i)
    expect(parsed.querySelectorAll('form, input, button, iframe, object').length).toBe(0)
    // Only our own CSP/charset meta and our own base remain.
    expect(Array.from(parsed.querySelectorAll('meta')).map((m) => m.getAttribute('http-equiv') ?? 'charset')).toEqual(['Content-Security-Policy', 'charset'])
    expect(Array.from(parsed.querySelectorAll('base')).map((b) => b.outerHTML)).toEqual(['<base target="_blank">'])
  })

  it('opens links in a new tab without opener or referrer', () => {
    const parsed = bodyOf(buildMailDocument('<a href="https://example.com/verify">Verify</a>', { attachments, showRemote: false }))
    const a = parsed.querySelector('a')!
    expect(a.getAttribute('target')).toBe('_blank')
    expect(a.getAttribute('rel')).toBe('noopener noreferrer')
  })

  it('restores remote references only when asked', () => {
    const html =
      '<img data-remote-src="https://t.example/a.png" data-remote-srcset="https://t.example/b.png 2x">' +
      '<td data-remote-background="https://t.example/bg.png"></td>' +
      '<div style="color:red" data-remote-style="background-image:url(https://t.example/c.png)"></div>'
    const blocked = bodyOf(buildMailDocument(html, { attachments, showRemote: false }))
    expect(blocked.querySelector('img')!.hasAttribute('src')).toBe(false)
    expect(blocked.querySelector('img')!.hasAttribute('srcset')).toBe(false)
    expect(blocked.querySelector('div')!.getAttribute('style')).toBe('color:red')

    const shown = bodyOf(buildMailDocument(html, { attachments, showRemote: true }))
    expect(shown.querySelector('img')!.getAttribute('src')).toBe('https://t.example/a.png')
    expect(shown.querySelector('img')!.getAttribute('srcset')).toBe('https://t.example/b.png 2x')
    expect(shown.querySelector('div')!.getAttribute('style')).toContain('background-image:url(https://t.example/c.png)')
  })

  describe('remote CSS in <style> blocks', () => {
    const remote = 'https://track.example/css.png'
    // As the server sends it: html/head are not kept, so the <style> leads and the parser moves it into <head>.
    const html =
      `<style data-remote-css=".x{background:url(&quot;${remote}&quot;)}">.x{background:none}</style>` +
      `<body><div class="x">Banner</div><style data-remote-css=".y{background:url(${remote}?b)}">.y{background:none}</style></body>`

    it('keeps it out, and images blocked by the CSP, until Show images', () => {
      const doc = buildMailDocument(html, { attachments, showRemote: false })
      expect(doc).not.toContain('track.example')
      expect(doc).not.toContain('data-remote-css')
      const parsed = bodyOf(doc)
      const csp = parsed.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!
      expect(csp).not.toMatch(/https?:(?!\/\/tempbox\.example)/)
      expect(Array.from(parsed.querySelectorAll('style')).map((s) => s.textContent)).toEqual([
        expect.stringContaining('margin:0'),
        '.x{background:none}',
        '.y{background:none}',
      ])
      expect(parsed.querySelector('div.x')!.textContent).toBe('Banner')
    })

    it('restores it in the head and the body with Show images, under a CSP that lets http(s) images load', () => {
      const doc = buildMailDocument(html, { attachments, showRemote: true })
      expect(doc).not.toContain('data-remote-css')
      const parsed = bodyOf(doc)
      expect(parsed.head.querySelectorAll('style')[1]!.textContent).toBe(`.x{background:url("${remote}")}`)
      expect(parsed.body.querySelector('style')!.textContent).toBe(`.y{background:url(${remote}?b)}`)
      const csp = parsed.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!
      expect(csp).toContain(`img-src data: ${attachments} https: http:;`)
    })

    it('cannot close the <style> early from the restored CSS', () => {
      const sneaky = `<style data-remote-css="a{background:url(${remote})}&lt;/style&gt;&lt;img src=x onerror=top.__pwned=1&gt;"></style><p>Hi</p>`
      const parsed = bodyOf(buildMailDocument(sneaky, { attachments, showRemote: true }))
      expect(parsed.querySelectorAll('img').length).toBe(0)
      expect(parsed.body.innerHTML).toBe('<p>Hi</p>')
    })
  })

  it('keeps cid images served from our origin', () => {
    const src = `${origin}/api/email/a%40b.test/messages/1/attachments/0`
    const parsed = bodyOf(buildMailDocument(`<img src="${src}">`, { attachments, showRemote: false }))
    expect(parsed.querySelector('img')!.getAttribute('src')).toBe(src)
  })
})
