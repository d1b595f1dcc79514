import { textHeadOf } from './text-head.js'

/**
 * What a message view shows of the header lines: at most `count` of them, each value at most `valueChars` characters
 * (the api's message view reads these limits from here).
 */
export const VIEW_HEADER_LIMITS = { valueChars: 4096, count: 200 } as const

/**
 * The header lines as stored for the view: the first `count + 1`, names and values at most `valueChars + 1` characters
 * (as SQL's substr counts them), so the view can still tell that there are more, or that a value goes on. The view reads
 * them through a JSON walk that parses the whole stored array: a 1 MB header stored whole cost every first read of the
 * message that walk. The .eml download keeps every line whole.
 */
export function storedHeaders(headers: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
  const { count, valueChars } = VIEW_HEADER_LIMITS
  return headers.slice(0, count + 1).map(([name, value]) => [cut(name, valueChars), cut(value, valueChars)])
}

function cut(value: string, chars: number): string {
  return (textHeadOf(value, chars) as string | null) ?? value
}
