import { describe, expect, it } from 'vitest'
import { scanHtml } from '../src/html-scan.js'
import { DEFAULT_DERIVE_LIMITS as L } from '../src/limits.js'

/** The text a reader of an HTML-only mail is shown (before tidy, which would hide a stray blank or break). */
const textOf = (html: string, limits = L) => scanHtml(html, limits).text

describe('scanHtml: the text of an HTML mail', () => {
  it('puts an empty line between paragraphs and a line break between lines', () => {
    expect(textOf('<p>One</p><p>Two</p><div>Three</div><div>Four</div><h1>Five</h1>')).toBe('One\n\nTwo\n\nThree\nFour\n\nFive')
  })

  it('gives every paragraph element an empty line and every line element a line break, each element named', () => {
    const paragraphs = ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'ul', 'ol', 'dl', 'blockquote', 'pre', 'figure']
    const lines = [
      'div', 'tr', 'li', 'dt', 'dd', 'section', 'article', 'header', 'footer', 'main', 'nav', 'aside', 'address', 'center',
      'caption', 'tbody', 'thead', 'tfoot', 'form', 'fieldset', 'details', 'summary', 'figcaption', 'body', 'html',
    ]
    const text = (tag: string) => textOf(`x<${tag}>y</${tag}>z`)
    expect(Object.fromEntries(paragraphs.map((tag) => [tag, text(tag)]))).toEqual(Object.fromEntries(paragraphs.map((tag) => [tag, 'x\n\ny\n\nz'])))
    expect(Object.fromEntries(lines.map((tag) => [tag, text(tag)]))).toEqual(Object.fromEntries(lines.map((tag) => [tag, 'x\ny\nz'])))
    expect([text('td'), text('th'), textOf('x<hr>y')]).toEqual(['x y z', 'x y z', 'x\n\ny'])
  })

  it('reads tags in any case', () => {
    expect(textOf('<P>One</P><DIV>Two</DIV><Div>Three</Div>')).toBe('One\n\nTwo\nThree')
  })

  it('starts with the first text, not with the breaks of the blocks before it', () => {
    expect(textOf('<div><p><br><br>Hello</p></div>')).toBe('Hello')
  })

  it('breaks a line at <br>, at most one empty line for a run of them', () => {
    expect(textOf('A<br>B<br><br>C<br><br><br><br>D')).toBe('A\nB\n\nC\n\nD')
  })

  it('leaves no gap for empty blocks', () => {
    expect(textOf('<p>One</p><p></p><div> </div><p>Two</p>')).toBe('One\n\nTwo')
  })

  it('separates table cells by a space and rows by a line break', () => {
    expect(textOf('<table><tr><td>Name</td><th>Value</th></tr><tr><td>a</td><td>b</td></tr></table>')).toBe('Name Value\na b')
  })

  it('ends a line and a cell where they close, too', () => {
    expect(textOf('a<div>b</div>')).toBe('a\nb')
    expect(textOf('a<td>b</td>')).toBe('a b')
    expect(textOf('<div>a</div>b')).toBe('a\nb')
    expect(textOf('<td>a</td>b')).toBe('a b')
  })

  it('collapses whitespace to one space, keeps the space between inline elements and invents none', () => {
    expect(textOf('<p>  Hello \n\t world  </p>')).toBe('Hello world')
    expect(textOf('<b>Hello</b> <i>world</i>')).toBe('Hello world')
    expect(textOf('<b>Hello </b><i>world</i>')).toBe('Hello world')
    expect(textOf('<b>Hello</b><i> world</i>')).toBe('Hello world')
    expect(textOf('<b>Hello</b><i>world</i>')).toBe('Helloworld')
  })

  it('keeps the whitespace of <pre> as it is, and collapses it again after', () => {
    expect(textOf('<pre>a  b\n  c</pre><p>x   y</p>')).toBe('a  b\n  c\n\nx y')
    expect(textOf('<pre><pre>p  q</pre>r  s</pre><p>x   y</p>')).toBe('p  q\n\nr  s\n\nx y')
    expect(textOf('<pre>a  <b>b</b>  c</pre>')).toBe('a  b  c')
  })

  it('leaves out what is not read: style, script, head, title, template', () => {
    expect(textOf('<head><title>T</title><style>p{color:red}</style></head><body><script>var a</script><p>Shown</p><template>t</template>Too</body>')).toBe(
      'Shown\n\nToo',
    )
  })

  it('leaves out the text of head, a bare title, noscript, svg, math, select, textarea and xml islands', () => {
    expect(
      textOf(
        '<head>Head text<meta charset="utf-8"></head><body><noscript>Enable JavaScript</noscript><svg><text>Logo</text></svg><math><mi>x</mi></math><select><option>Pick</option></select><textarea>Type</textarea><xml>data</xml><p>Shown</p></body>',
      ),
    ).toBe('Shown')
    // Many mails repeat their subject in a <title> with no <head> around it.
    expect(textOf('<title>Subject line</title><p>Shown</p>')).toBe('Shown')
  })

  it('reads text again after a skipped element closes, even one closed twice', () => {
    expect(textOf('<style>x</style></style>after')).toBe('after')
    expect(textOf('</script><p>Shown</p>')).toBe('Shown')
  })

  it('decodes entities', () => {
    expect(textOf('<p>Tom &amp; Jerry &lt;3</p>')).toBe('Tom & Jerry <3')
  })

  it('writes a link as its label and then its address', () => {
    expect(textOf('<p>Please <a href="https://x.test/verify?t=1">verify your email</a> now</p>')).toBe('Please verify your email (https://x.test/verify?t=1) now')
    expect(textOf('<a href="mailto:help@x.test">write to us</a>')).toBe('write to us (mailto:help@x.test)')
  })

  it('does not repeat an address that is the label, and writes no address for other kinds of link', () => {
    expect(textOf('<a href="https://x.test/a">https://x.test/a</a>')).toBe('https://x.test/a')
    expect(textOf('<a href="mailto:ann@x.test">ann@x.test</a>')).toBe('ann@x.test')
    expect(textOf('<a href="tel:123">Call us</a> <a href="#top">Top</a>')).toBe('Call us Top')
    expect(textOf('<a href=" HTTPS://x.test/b ">Go</a>')).toBe('Go (HTTPS://x.test/b)')
    expect(textOf('<a href="http://x.test/c">Go</a>')).toBe('Go (http://x.test/c)')
    expect(textOf('<a href="/out?to=https://x.test/d">Go</a>')).toBe('Go')
  })

  it('adds no second blank before a link address when the text already ends in one', () => {
    expect(textOf('<pre><a href="https://x.test/a">go </a></pre>')).toBe('go (https://x.test/a)')
    expect(textOf('<pre><a href="https://x.test/a">go\n</a></pre>')).toBe('go\n(https://x.test/a)')
  })

  it('stops at htmlTextChars', () => {
    expect(textOf('<p>abcdefghijklmnop</p>', { ...L, htmlTextChars: 10 })).toBe('abcdefghij')
    expect(textOf('<p>abc</p><p>defghijk</p><p>more</p>', { ...L, htmlTextChars: 8 })).toBe('abc\n\ndef')
    expect(textOf('<pre>abcdefghijklmnop</pre>', { ...L, htmlTextChars: 5 })).toBe('abcde')
  })

  it('reads only the first htmlScanChars of the HTML', () => {
    expect(textOf('<p>Hello</p><p>World</p>', { ...L, htmlScanChars: 12 })).toBe('Hello')
  })

  it('gives no text when none is wanted, and still the links', () => {
    const scan = scanHtml('<p>Hi <a href="https://x.test/v">verify</a></p>', L, false)
    expect(scan.text).toBe('')
    expect(scan.anchors).toEqual([{ href: 'https://x.test/v', label: 'verify' }])
  })
})

describe('scanHtml: links', () => {
  const anchorsOf = (html: string, limits = L) => scanHtml(html, limits).anchors

  it('reads each link with its text, whitespace collapsed across elements', () => {
    expect(anchorsOf('<a href="https://x.test/v">  Verify <b> your </b>\n email </a>')).toEqual([{ href: 'https://x.test/v', label: 'Verify your email' }])
    expect(anchorsOf('<a href="https://x.test/v">Verify <b> your</b> email</a>')).toEqual([{ href: 'https://x.test/v', label: 'Verify your email' }])
  })

  it('ends a link left open where the next one starts, and at the end of the document', () => {
    expect(anchorsOf('<a href="https://x.test/1">one <a href="https://x.test/2">two')).toEqual([
      { href: 'https://x.test/1', label: 'one' },
      { href: 'https://x.test/2', label: 'two' },
    ])
  })

  it('reads attribute names in any case', () => {
    expect(anchorsOf('<A HREF="https://x.test/v">Go</A>')).toEqual([{ href: 'https://x.test/v', label: 'Go' }])
  })

  it('ignores anchors without href and takes no label from the text after a link', () => {
    expect(anchorsOf('<a name="top">Top</a><a href="https://x.test/v">Go</a> after')).toEqual([{ href: 'https://x.test/v', label: 'Go' }])
  })

  it('keeps 240 characters of a label', () => {
    const [anchor] = anchorsOf(`<a href="https://x.test/v">${'abcd'.repeat(100)}</a>`)
    expect(anchor!.label).toBe('abcd'.repeat(60))
    const [spaced] = anchorsOf(`<a href="https://x.test/v">${'abcd'.repeat(50)}<b>${'efgh'.repeat(50)}</b></a>`)
    expect(spaced!.label).toBe('abcd'.repeat(50) + 'efgh'.repeat(10))
  })

  it('reads at most maxAnchors links', () => {
    expect(anchorsOf('<a href="https://x.test/1">1</a><a href="https://x.test/2">2</a><a href="https://x.test/3">3</a>', { ...L, maxAnchors: 2 }).map((a) => a.href)).toEqual([
      'https://x.test/1',
      'https://x.test/2',
    ])
  })

  it('cuts an address one character past maxLinkUrlChars, so it is known to be too long', () => {
    expect(anchorsOf('<a href="https://x.test/long-path">x</a><a href="https://xy">y</a>', { ...L, maxLinkUrlChars: 10 }).map((a) => a.href)).toEqual([
      'https://x.t',
      'https://xy',
    ])
  })
})

describe('scanHtml: what rendering would cost', () => {
  it('counts tags, attributes (an address as 16), text runs and end tags', () => {
    // <a> 1, href 16, class 1, text 1, </a> 1; <p> 1, text 1, </p> 1
    expect(scanHtml('<a href="u" class="c">x</a><p>y</p>', L).tokens).toBe(23)
    expect(scanHtml('<img src="u" srcset="v" alt="a"><td background="b"></td><q cite="c"></q><form action="d"></form><video poster="e"></video>', L).tokens).toBe(
      // img 1 + src 16 + srcset 16 + alt 1 + </img> 1; td 1 + 16 + 1; q 1 + 16 + 1; form 1 + 16 + 1; video 1 + 16 + 1
      35 + 18 * 4,
    )
  })

  it('is too deep one element past maxHtmlDepth, not at it', () => {
    const nest = (n: number) => `${'<div>'.repeat(n)}x${'</div>'.repeat(n)}`
    expect(scanHtml(nest(3), { ...L, maxHtmlDepth: 3 }).tooDeep).toBe(false)
    expect(scanHtml(nest(4), { ...L, maxHtmlDepth: 3 }).tooDeep).toBe(true)
  })

  it('stops reading where the nesting became too deep', () => {
    const scan = scanHtml(`<p>Before</p>${'<div>'.repeat(5)}<a href="https://x.test/v">after</a>`, { ...L, maxHtmlDepth: 3 })
    expect(scan.tooDeep).toBe(true)
    expect(scan.text).toBe('Before')
    expect(scan.anchors).toEqual([])
  })

  it('is too costly when unmatched end tags would cost the parser more than a million lookups', () => {
    // Each unmatched </i> looks through the 400 open <b>: 2,500 of them cost exactly a million lookups, 2,501 one more.
    const doc = (ends: number) => `<b>`.repeat(400) + 'x' + '</i>'.repeat(ends) + ' after'
    const under = scanHtml(doc(2500), L)
    expect(under.tooDeep).toBe(false)
    expect(under.text).toBe('x after')
    const over = scanHtml(doc(2501), L)
    expect(over.tooDeep).toBe(true)
    expect(over.text).toBe('x')
  })
})
