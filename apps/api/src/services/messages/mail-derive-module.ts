type MailDerive = typeof import('@tempbox/mail-derive')

let loading: Promise<MailDerive> | null = null

/**
 * @tempbox/mail-derive, loaded with the first message read or mail document: it brings sanitize-html, htmlparser2 and
 * postcss (~6.5 MB of heap), which the listing polls that make up most requests never use.
 */
export function mailDerive(): Promise<MailDerive> {
  loading ??= import('@tempbox/mail-derive')
  return loading
}
