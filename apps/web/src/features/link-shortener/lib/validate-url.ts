import { addMissingScheme } from '../../../lib/web-address'

/** Client-side check of spec §5, before any call: empty → one message, not an absolute http(s) URL → another. */
export type UrlProblem = 'empty' | 'invalid'

/**
 * The URL to shorten, or why there is none. A bare domain ("example.com/some/page") gets https:// in front rather
 * than an error: that is what nearly everyone who types one means.
 */
export function prepareUrl(input: string): { url: string } | { problem: UrlProblem } {
  const { value } = addMissingScheme(input)
  if (!value) return { problem: 'empty' }
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? { url: value } : { problem: 'invalid' }
  } catch {
    return { problem: 'invalid' }
  }
}
