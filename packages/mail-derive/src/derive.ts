import type { CodeDetail, VerificationLink } from '@tempbox/types'
import { scanHtml, type HtmlScan } from './html-scan.js'
import { tidy } from './html-text.js'
import { DEFAULT_DERIVE_LIMITS, type DeriveLimits } from './limits.js'
import { previewOf } from './preview.js'
import { sanitizeMailHtml } from './sanitize-html.js'
import { extractCodeDetails, extractLinks } from './verification.js'

/**
 * Bumped whenever what deriveMessage produces changes: rows derived by an older version are derived again on their
 * next read (the API stores the new result).
 */
export const DERIVED_VERSION = 2

/** Why a message's HTML is not shown: the reader gets its text and a note to download the .eml instead. */
export type HtmlWithheld = 'too_large' | 'unrenderable'

export interface DeriveInput {
  subject: string
  /** The text part (or its first part: at least `textScanChars` characters of it), null when there is none. */
  text: string | null
  html: string | null
  /** The Content-ID of each attachment, by position (null when it has none). */
  contentIds: readonly (string | null)[]
}

/** Everything a reader sees that is computed from a message rather than stored as received. */
export interface DerivedMessage {
  version: number
  preview: string
  /** Text rendering of the HTML, for a message without a (non-blank) text part; null otherwise. */
  htmlText: string | null
  /** The codes with where each came from (stored as such: a reader takes `codes` from them). */
  codes: CodeDetail[]
  links: VerificationLink[]
  /** Sanitized HTML whose attachment references are placeholders (resolveAttachmentRefs); null when none is shown. */
  safeHtml: string | null
  hasRemoteContent: boolean
  htmlWithheld: HtmlWithheld | null
  /** What failed while deriving (the rest was still derived); for the caller's log, not stored. */
  failures: string[]
}

/**
 * Marks an attachment reference inside stored sanitized HTML: `\uE000<position>\uE000`. The message's id and address
 * (which build the download URL) are not known when it is derived, and one stored message may be read through several
 * addresses. A private-use character cannot come from the sender: it is removed from the HTML before sanitizing.
 */
const REF_MARK = '\uE000'

/**
 * Derives a message's view once (at ingest, or at the first read of a message stored before this existed). Each part
 * is bounded by `limits` and fails alone: a part that throws is left empty (or the HTML withheld) and named in
 * `failures`, so one strange message still shows what could be built.
 */
export function deriveMessage(input: DeriveInput, limits: DeriveLimits = DEFAULT_DERIVE_LIMITS): DerivedMessage {
  const failures: string[] = []
  const attempt = <T>(part: string, fallback: T, run: () => T): T => {
    try {
      return run()
    } catch (error) {
      failures.push(`${part}: ${error instanceof Error ? error.message : String(error)}`)
      return fallback
    }
  }
  const text = input.text && input.text.slice(0, limits.textScanChars).trim() !== '' ? input.text : null
  const html = input.html || null
  const displayable = html !== null && html.length <= limits.htmlDisplayChars
  // HTML that may be displayed is checked for depth in full; a longer one is only read for its text and links.
  const scanLimits = displayable ? { ...limits, htmlScanChars: Math.max(limits.htmlScanChars, limits.htmlDisplayChars) } : limits
  const empty: HtmlScan = { anchors: [], text: '', tooDeep: false, tokens: 0 }
  const scan = html ? attempt('html scan', { ...empty, tooDeep: true }, () => scanHtml(html, scanLimits, text === null)) : empty
  const htmlText = text === null && html ? attempt('html text', '', () => tidy(scan.text)) : null
  const content = text ?? htmlText ?? ''
  const codes = attempt('codes', [] as CodeDetail[], () => extractCodeDetails(input.subject, content, limits))
  const links = attempt('links', [] as VerificationLink[], () => extractLinks(scan.anchors, content, limits))
  const preview = attempt('preview', '', () => previewOf(content, limits.previewChars))

  let safeHtml: string | null = null
  let hasRemoteContent = false
  let htmlWithheld: HtmlWithheld | null = null
  if (html) {
    if (!displayable || scan.tokens > limits.maxHtmlTokens) htmlWithheld = 'too_large'
    else if (scan.tooDeep) htmlWithheld = 'unrenderable'
    else {
      const sanitized = attempt('sanitize', null, () => sanitizeWithRefs(html, input.contentIds, limits))
      if (sanitized) ({ html: safeHtml, hasRemoteContent } = sanitized)
      else htmlWithheld = 'unrenderable'
    }
  }
  return { version: DERIVED_VERSION, preview, htmlText, codes, links, safeHtml, hasRemoteContent, htmlWithheld, failures }
}

function sanitizeWithRefs(html: string, contentIds: readonly (string | null)[], limits: DeriveLimits) {
  const byCid = new Map<string, number>()
  contentIds.forEach((cid, position) => {
    if (cid && !byCid.has(normalizeCid(cid))) byCid.set(normalizeCid(cid), position)
  })
  return sanitizeMailHtml(
    html.replaceAll(REF_MARK, ''),
    {
      cidUrl: (cid) => {
        const position = byCid.get(normalizeCid(cid))
        return position === undefined ? null : `${REF_MARK}${position}${REF_MARK}`
      },
    },
    limits.maxCssChars,
  )
}

/** Stored sanitized HTML with its attachment placeholders made into download URLs (one pass). */
export function resolveAttachmentRefs(safeHtml: string, urlFor: (position: number) => string): string {
  if (!safeHtml.includes(REF_MARK)) return safeHtml
  const parts = safeHtml.split(REF_MARK)
  for (let i = 1; i < parts.length; i += 2) parts[i] = urlFor(Number(parts[i]))
  return parts.join('')
}

export function stripAngles(cid: string): string {
  const v = cid.trim()
  return v.slice(v.startsWith('<') ? 1 : 0, v.endsWith('>') ? -1 : undefined)
}

function normalizeCid(cid: string): string {
  let v = stripAngles(cid)
  try {
    v = decodeURIComponent(v)
  } catch {
    // keep as is
  }
  return v.toLowerCase()
}
