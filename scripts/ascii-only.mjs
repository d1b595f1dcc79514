// Makes a bundle ASCII-only where esbuild leaves it not (its `charset: 'ascii'` escapes strings, not comments or
// regular expression literals). Node decodes a module's source once and V8 keeps it: one non-ASCII byte in 6 MB made
// it a UTF-16 string of twice the size (the api's RSS was 6 MB higher) and the decoding ~90 ms slower.
import { readFileSync, writeFileSync } from 'node:fs'
import { tokenizer } from 'acorn'

const NON_ASCII = /[^\x00-\x7f]/

/** `\uXXXX` for each UTF-16 unit of `char`: a surrogate pair of escapes reads as one code point under the u flag too. */
function escape(char) {
  let out = ''
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`
  return out
}

/** `text` (a comment, or a regular expression literal when `regexp`) with its non-ASCII characters escaped. */
function escapeRange(text, regexp) {
  let out = ''
  for (const char of text) {
    if (!NON_ASCII.test(char)) {
      out += char
      continue
    }
    // In a regular expression `\“` is that character itself: its escape replaces the backslash too.
    let backslashes = 0
    while (regexp && out[out.length - 1 - backslashes] === '\\') backslashes++
    out = (backslashes % 2 === 1 ? out.slice(0, -1) : out) + escape(char)
  }
  return out
}

/** Rewrites `file` in place; returns how many non-ASCII characters stay (none unless in a tagged template's raw text). */
export function asciiOnly(file) {
  const source = readFileSync(file, 'utf8')
  if (!NON_ASCII.test(source)) return 0
  const ranges = []
  const onComment = (_block, text, start, end) => NON_ASCII.test(text) && ranges.push({ start, end, regexp: false })
  for (const token of tokenizer(source, { ecmaVersion: 'latest', sourceType: 'module', onComment })) {
    if (token.type.label === 'regexp' && NON_ASCII.test(source.slice(token.start, token.end))) ranges.push({ start: token.start, end: token.end, regexp: true })
  }
  ranges.sort((a, b) => a.start - b.start)
  let out = ''
  let at = 0
  for (const { start, end, regexp } of ranges) {
    out += source.slice(at, start) + escapeRange(source.slice(start, end), regexp)
    at = end
  }
  out += source.slice(at)
  writeFileSync(file, out)
  return [...out].filter((char) => NON_ASCII.test(char)).length
}
