export type TextPiece = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string }

/** http(s) URLs and bare www. hosts, up to the first space or character that cannot end one in running text. */
const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"'`]+/gi
/** Punctuation that ends a sentence rather than the URL ("see https://x.test/a." → the dot is not part of it). */
const TRAILING = '.,;:!?\'")]}>»”’'

/**
 * The run of TRAILING characters at the end of `url`, found by a loop from the end: the pattern `[.,…]+$` would try
 * each position of a long run of dots not at the end (`https://x.test/a…….x`) and rescan the run from there.
 */
function trailingRun(url: string): string {
  let end = url.length
  while (end > 0 && TRAILING.includes(url[end - 1]!)) end--
  return url.slice(end)
}

/**
 * Plain text split into text and links, for rendering the links of a text mail as anchors. One linear pass over the
 * text (no backtracking pattern), so a long text costs its length; only http(s) links are ever made.
 */
export function linkify(text: string): TextPiece[] {
  const pieces: TextPiece[] = []
  let last = 0
  for (const match of text.matchAll(URL_PATTERN)) {
    let url = match[0]
    const trailing = trailingRun(url)
    // A closing bracket that closes one opened inside the URL belongs to it (Wikipedia-style links).
    if (trailing && !(trailing === ')' && url.includes('('))) url = url.slice(0, -trailing.length)
    if (!url.includes('.', url.indexOf('//') + 2)) continue
    const start = match.index
    if (start > last) pieces.push({ kind: 'text', text: text.slice(last, start) })
    pieces.push({ kind: 'link', text: url, href: /^www\./i.test(url) ? `https://${url}` : url })
    last = start + url.length
  }
  if (last < text.length) pieces.push({ kind: 'text', text: text.slice(last) })
  return pieces
}
