/** Client-side check of spec §5, before any call: empty → one message, not an absolute http(s) URL → another. */
export type UrlProblem = 'empty' | 'invalid'

export function checkUrl(input: string): UrlProblem | null {
  const text = input.trim()
  if (!text) return 'empty'
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'invalid'
  } catch {
    return 'invalid'
  }
}
