const LF_LF = Buffer.from('\n\n')
const LF_CRLF = Buffer.from('\n\r\n')

/** Where the header block ends as mailauth reads it (after the first empty line, LF or CRLF), or -1 if it never does. */
export function headerBlockEnd(raw: Buffer): number {
  const lf = raw.indexOf(LF_LF)
  const crlf = raw.indexOf(LF_CRLF, 0)
  if (lf < 0 && crlf < 0) return -1
  if (crlf < 0 || (lf >= 0 && lf < crlf)) return lf + LF_LF.length
  return crlf + LF_CRLF.length
}

/** Whether any header line of the block names a DKIM signature or an ARC header (conservative: any line starting so). */
export function signsBody(head: string): boolean {
  const lower = head.toLowerCase()
  return lower.startsWith('dkim-signature') || lower.startsWith('arc-') || lower.includes('\ndkim-signature') || lower.includes('\narc-')
}
