const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/**
 * Decodes the few entities that show up in URLs and labels taken from text. Never throws: a numeric reference that is
 * no Unicode scalar value (`&#99999999;`, a lone surrogate, NUL) becomes U+FFFD, as HTML parsers do. Linear: one pass,
 * each reference at most 10 characters long.
 */
export function decodeBasicEntities(s: string): string {
  if (!s.includes('&')) return s
  return s.replace(/&(#x[0-9a-f]{1,8}|#[0-9]{1,10}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole
    const hex = ref[1] === 'x' || ref[1] === 'X'
    return codePointText(hex ? parseInt(ref.slice(2), 16) : Number(ref.slice(1)))
  })
}

function codePointText(cp: number): string {
  if (!Number.isInteger(cp) || cp <= 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\uFFFD'
  return String.fromCodePoint(cp)
}
