import { describe, expect, it } from 'vitest'
import { sanitizeMailHtml } from '../src/sanitize-html.js'

const ATTACHMENT = '/api/email/a%40b.test/messages/1/attachments/0'
const ctx = { cidUrl: (cid: string) => (cid === 'logo@x' ? ATTACHMENT : null) }

/** What the reader's frame may load: the message's own attachments (cid:) at once, remote resources only on "Show images". */
describe('sanitizeMailHtml references', () => {
  it('points a cid: background of body, td and th at the attachment, as of table', () => {
    const { html, hasRemoteContent } = sanitizeMailHtml(
      '<body background="cid:logo@x"><table><tr><td background="cid:logo@x">a</td><th background="CID:logo@x">b</th></tr></table></body>',
      ctx,
    )
    expect(html).toBe(`<body background="${ATTACHMENT}"><table><tr><td background="${ATTACHMENT}">a</td><th background="${ATTACHMENT}">b</th></tr></table></body>`)
    expect(hasRemoteContent).toBe(false)
  })

  it('reports remote content for a remote image source alone, so the reader is offered Show images', () => {
    expect(sanitizeMailHtml('<p>Hi</p><img src="https://t.test/a.png">', ctx).hasRemoteContent).toBe(true)
    expect(sanitizeMailHtml('<img src="//t.test/p.gif">', ctx).hasRemoteContent).toBe(true)
    expect(sanitizeMailHtml('<img src="cid:logo@x"><img src="data:image/png;base64,AA"><img src="rel.png">', ctx).hasRemoteContent).toBe(false)
  })

  it('reads cid: only at the start of a url() in the Show images copy too, whatever Content-IDs the message has', () => {
    // Every lookup succeeds here: a url that merely contains cid: must not be looked up at all.
    const anyCid = { cidUrl: () => ATTACHMENT }
    const { html } = sanitizeMailHtml('<p style="background:url(https://t.test/r), url(rel/cid:x), url(xxxxcid:x), url(cid:y)">a</p>', anyCid)
    expect(html).toBe(
      `<p style="background:none, none, none, url(&quot;${ATTACHMENT}&quot;)" data-remote-style="background:url(&quot;https://t.test/r&quot;), none, none, url(&quot;${ATTACHMENT}&quot;)">a</p>`,
    )
  })
})
