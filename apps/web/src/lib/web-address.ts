/**
 * "example.com" or "www.example.com/path" without a scheme: a web address someone forgot the https:// of. Labels are
 * bounded (63 characters), so checking a pasted line stays cheap.
 */
const BARE_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?::\d{1,5})?(?:[/?#]\S*)?$/i

/** The text trimmed, with https:// in front when it is a bare domain (spec §5 for QR codes; the link shortener too). */
export function addMissingScheme(input: string): { value: string; formatted: boolean } {
  const text = input.trim()
  if (BARE_DOMAIN.test(text)) return { value: `https://${text}`, formatted: true }
  return { value: text, formatted: false }
}
