/**
 * Sub-addressing (RFC 5233): `name+tag@domain` is delivered to `name@domain`. A chosen name may itself hold '+' (the
 * api's DOT_ATOM allows it), so the address as written is looked up first and only then its base (split at the first
 * '+'): an issued `a+b@…` keeps its mail, and `+reject` in its name is no fault tag.
 */
export interface SubAddress {
  /** `name@domain` without the tag. */
  base: string
  /** The tag without '+' (may be empty), or null when the local part has no '+'. */
  tag: string | null
}

/** Splits a lower-cased `local@domain`. */
export function subAddress(address: string): SubAddress {
  const at = address.lastIndexOf('@')
  const plus = address.indexOf('+')
  if (plus < 0 || plus > at) return { base: address, tag: null }
  return { base: address.slice(0, plus) + address.slice(at), tag: address.slice(plus + 1, at) }
}

/** A tag that makes the server misbehave on purpose for that recipient (issue 31), the same way every time. */
export type Fault =
  | { kind: 'greylist' } | { kind: 'reject' } | { kind: 'full' } | { kind: 'disconnect' }
  | { kind: 'tempfail'; tries: number } | { kind: 'slow'; seconds: number }

/** The fault a tag names (`greylist`, `tempfail1`–`tempfail9`, `reject`, `slow1`–`slow30`, `disconnect`, `full`), else null. */
export function faultOf(tag: string | null): Fault | null {
  if (tag === null) return null
  if (tag === 'greylist' || tag === 'reject' || tag === 'full' || tag === 'disconnect') return { kind: tag }
  const tempfail = /^tempfail([1-9])$/.exec(tag)
  if (tempfail) return { kind: 'tempfail', tries: Number(tempfail[1]) }
  const slow = /^slow([1-9]|[12][0-9]|30)$/.exec(tag)
  if (slow) return { kind: 'slow', seconds: Number(slow[1]) }
  return null
}

/**
 * The Subject header's value as sent (unfolded, not decoded), or '' when there is none: what +tempfail counts tries of
 * a message by, read at the end of DATA before the message is parsed. Looks at the header block only.
 */
export function rawSubject(raw: Buffer): string {
  let end = raw.indexOf('\r\n\r\n')
  if (end < 0) end = raw.length
  const head = raw.subarray(0, end).toString('latin1')
  const match = /(?:^|\r\n)subject:([^\r\n]*(?:\r\n[ \t][^\r\n]*)*)/i.exec(head)
  return match ? match[1]!.replace(/\r\n/g, '').trim() : ''
}
