import type { ReactNode } from 'react'

/**
 * Wraps ".eml" in a left-to-right isolate: in a right-to-left sentence the bidi algorithm otherwise moves its dot to the
 * far end, and Arabic readers saw "eml.". The accessible text is unchanged.
 */
export function isolateFileType(text: string): ReactNode[] {
  return text.split(/(\.eml)/).map((piece, i) => (piece === '.eml' ? <bdi key={i} dir="ltr">{piece}</bdi> : piece))
}
