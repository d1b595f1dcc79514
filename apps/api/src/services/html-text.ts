import { compile } from 'html-to-text'

/** Compiled once: html-to-text's option processing is the expensive part of a call. */
const convert = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, linkBrackets: ['(', ')'] } },
    { selector: 'img', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'head', format: 'skip' },
    { selector: 'table', format: 'block' },
    { selector: 'tr', format: 'block' },
    { selector: 'td', format: 'inline' },
    { selector: 'th', format: 'inline' },
  ],
  limits: { maxInputLength: 2_000_000 },
})

/** A readable plain-text rendering of an HTML body; never throws (malformed HTML gives what could be read). */
export function htmlToText(html: string): string {
  try {
    return convert(html).replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim()
  } catch {
    return html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim()
  }
}
