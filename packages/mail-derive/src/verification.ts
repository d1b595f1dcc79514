import { CODE_SOURCE_CHARS, type CodeDetail, type Verification, type VerificationLink } from '@tempbox/types'
import { CODE_WORDS, codeWordPattern } from './code-words.js'
import { decodeBasicEntities } from './entities.js'
import { scanHtml, type Anchor } from './html-scan.js'
import { DEFAULT_DERIVE_LIMITS, type DeriveLimits } from './limits.js'

const CODE_WORD_RE = codeWordPattern(CODE_WORDS)

/** Words that make a nearby number something else than a code. */
const NOT_CODE_BEFORE =
  /(order|invoice|receipt|ticket|case|reference|ref\.?|tracking|account|acct|customer|member|booking|confirmation number|no\.|nr\.?|number|#|phone|tel\.?|call|fax|mobile|zip|postal|suite|room|flight|seat|id:|pedido|commande|bestellung|rechnung|заказ|订单|注文|\bat|\bby|\buntil|\bbefore|\bafter|\bsince)\s*[:#]?\s*$/i
const STREET_AFTER = /^\s+(\p{Lu}\p{L}+\s+){1,2}(St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Dr|Drive|Ln|Lane|Way|Ct|Court|Pl|Place)\b/u
const CURRENCY = /[$€£¥₹₽₩₺฿]|\b(usd|eur|gbp|jpy|inr|rub|cad|aud|chf)\b/i

/**
 * Candidate codes: 4–8 digits (optionally split once by a space or dash), or 6–8 upper-case letters mixed with digits,
 * standing as a word: not inside a domain ("123456.com"), a URL's query ("id=2828") or encoded junk ("!SDD9ZN?").
 * The look-aheads are bounded ({0,7}): unbounded ones would rescan a long run of capitals from each of its positions.
 */
const CANDIDATE_RE = /(?<![\p{L}\p{N}\-/.:,$€£¥#+=@_&!?%;~^|\\])(\d{3,4}[ -]\d{3,4}|\d{4,8}|(?=[A-Z0-9]{0,7}\d)(?=[A-Z0-9]{0,7}[A-Z])[A-Z0-9]{6,8})(?![\p{L}\p{N}/%=@_&~^|\\]|[.,:]\d|-\d|\.\p{L}|[?!;]\S)/gu
/**
 * What every candidate holds (three digits in a row, or six of [A-Z0-9]): a source without it has no code, and the
 * scan for code words (~16 µs a 2 KB text) is skipped. Written to start with one character class, which V8 skips ahead
 * on: `\d{3}|[A-Z0-9]{6}` tried both branches at every position, 13.6 µs a 2 KB text against 4.7. Exported for its
 * property test.
 */
export const MAY_HOLD_CANDIDATE = /[0-9A-Z]{3}(?:(?<=\d{3})|[0-9A-Z]{3})/

/** How far (characters) a code may be from its announcing word. */
const WINDOW = 80
/**
 * Announcing words and candidates looked at per source: a real code sits next to one of the first few; a text made of
 * nothing but "code 123456" should not cost a check for each of its thousands.
 */
const MAX_KEYWORDS = 200
const MAX_CANDIDATES = 200

interface Scored {
  detail: CodeDetail
  score: number
  at: number
  /** Whether `detail` was read in the text (its sentence explains more than the subject's). */
  inText: boolean
}

interface Keyword {
  at: number
  end: number
  word: string
}

/** Extracts one-time codes from the subject and text of a message (their first few kilobytes), most likely first. */
export function extractCodes(subject: string, text: string, limits: DeriveLimits = DEFAULT_DERIVE_LIMITS): string[] {
  return extractCodeDetails(subject, text, limits).map((d) => d.code)
}

/**
 * The codes of extractCodes, each with the sentence it came from, the word that announced it and its place. A code
 * found in both subject and text ranks by its better place but is explained by the text, where `position` points.
 */
export function extractCodeDetails(subject: string, text: string, limits: DeriveLimits = DEFAULT_DERIVE_LIMITS): CodeDetail[] {
  const found = new Map<string, Scored>()
  const sources = [subject.slice(0, limits.subjectScanChars), text.slice(0, limits.codeScanChars)]
  sources.forEach((src, sourceIndex) => {
    if (!src || !MAY_HOLD_CANDIDATE.test(src)) return
    const keywords: Keyword[] = []
    for (const m of src.matchAll(CODE_WORD_RE)) {
      if (keywords.length >= MAX_KEYWORDS) break
      const word = m[0].toLowerCase()
      // Latin-script words must stand alone ("pin" not in "spinning", "code" not in "barcode").
      const latin = /^[a-z0-9 -]+$/.test(word)
      if (latin) {
        const before = src[m.index - 1] ?? ' '
        const after = src[m.index + m[0].length] ?? ' '
        if (/[\p{L}]/u.test(before) || (/[\p{L}]/u.test(after) && !/^(code|kod|kode)$/.test(word))) continue
        // Compounds like "PIN-pad" or "code-review" name things, not codes.
        if (/^-\p{L}/u.test(src.slice(m.index + m[0].length, m.index + m[0].length + 2))) continue
      }
      keywords.push({ at: m.index, end: m.index + m[0].length, word: m[0] })
    }
    if (keywords.length === 0) return
    let candidates = 0
    for (const m of src.matchAll(CANDIDATE_RE)) {
      if (++candidates > MAX_CANDIDATES) break
      const raw = m[0]
      const at = m.index
      const nearest = nearestKeyword(keywords, at)
      const distance = Math.abs(keywords[nearest]!.at - at)
      if (distance > WINDOW) continue
      if (!plausibleCode(src, raw, at)) continue
      const code = raw.replace(/[ -]/g, '')
      const score = distance + sourceIndex * 5 + (/[A-Z]/.test(code) ? 10 : 0)
      const inText = sourceIndex === 1
      const prev = found.get(code)
      const better = !prev || prev.score > score
      if (!better && (prev.inText || !inText)) continue
      const detail = better && prev?.inText && !inText ? prev.detail : explain(src, code, at, raw.length, keywords, nearest)
      found.set(code, {
        detail,
        score: better ? score : prev!.score,
        at: better ? sourceIndex * 1e6 + at : prev!.at,
        inText: inText || (prev?.inText ?? false),
      })
    }
  })
  return [...found.values()].sort((a, b) => a.score - b.score || a.at - b.at).slice(0, 3).map((s) => s.detail)
}

/** Index in `sorted` (by position) of the keyword nearest `at`: a binary search, not a scan of all of them. */
function nearestKeyword(sorted: Keyword[], at: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]!.at < at) lo = mid + 1
    else hi = mid
  }
  if (lo === 0) return 0
  if (lo === sorted.length) return lo - 1
  return sorted[lo]!.at - at < at - sorted[lo - 1]!.at ? lo : lo - 1
}

/** Between a label and its code: separators and the few words that join them ("is", "lautet", "es", "est"…). */
const LABEL_GAP = /^[\s:：=\-–—>»"'“”*]*((is|are|was|lautet|ist|es|est|è|é|er|är|je|jest|to|это|هو|là|adalah)[\s:：]+)?[\s:：=\-–—>»"'“”*]*$/iu

function explain(src: string, code: string, at: number, length: number, keywords: Keyword[], nearest: number): CodeDetail {
  // A word right before the code labels it even when another one stands nearer ("Bestätigungscode: 605118\nDer Code").
  const before = nearest > 0 && keywords[nearest]!.at > at ? nearest - 1 : nearest
  if (before !== nearest && keywords[before]!.end <= at && LABEL_GAP.test(src.slice(keywords[before]!.end, at))) nearest = before
  let k = nearest
  // The label as the reader sees it: "verification code", not only its last word.
  let labelStart = keywords[k]!.at
  while (k > 0 && keywords[k - 1]!.end < labelStart && /^[ \t]$/.test(src.slice(keywords[k - 1]!.end, labelStart))) {
    k--
    labelStart = keywords[k]!.at
  }
  const keyword = keywords[nearest]!
  const label = src.slice(labelStart, keyword.end)
  const labelled = keyword.end <= at && LABEL_GAP.test(src.slice(keyword.end, at))
  return {
    code,
    source: sentenceAround(src, at, at + length),
    reason: labelled ? 'labelled' : /^\d+$/.test(code) ? 'digits_only' : 'mixed',
    label,
    position: at,
  }
}

/** Sentence ends: a line end, or sentence punctuation followed by a blank (or a CJK full stop). */
const SENTENCE_END = /\n|[.!?](?=\s)|[。！？]/g

/** The trimmed sentence holding src[from, to); a code alone on its line is read with the line that introduces it. */
function sentenceAround(src: string, from: number, to: number): string {
  const window = src.slice(Math.max(0, from - 400), Math.min(src.length, to + 400))
  const offset = Math.max(0, from - 400)
  let start = 0
  let previousStart = 0
  let end = window.length
  for (const m of window.matchAll(SENTENCE_END)) {
    const cut = m.index + m[0].length
    if (m.index < from - offset) {
      if (window.slice(start, m.index).trim() !== '') previousStart = start
      start = cut
    } else if (m.index >= to - offset) {
      end = m[0] === '\n' ? m.index : cut
      break
    }
  }
  let sentence = window.slice(start, end).trim()
  if (sentence.replace(/[\s*"'“”]/g, '').length <= to - from && start > 0) sentence = window.slice(previousStart, end).replace(/\s+/g, ' ').trim()
  return clip(sentence.replace(/\s+/g, ' '), from - offset - start, CODE_SOURCE_CHARS)
}

/** At most `max` characters of `sentence`, cut around the code (at `codeAt`) when it is longer. */
function clip(sentence: string, codeAt: number, max: number): string {
  if (sentence.length <= max) return sentence
  const begin = Math.min(Math.max(0, codeAt - Math.floor(max / 2)), sentence.length - max)
  return sentence.slice(begin, begin + max).trim()
}

function plausibleCode(src: string, raw: string, at: number): boolean {
  const before = src.slice(Math.max(0, at - 40), at)
  const after = src.slice(at + raw.length, at + raw.length + 12)
  if (NOT_CODE_BEFORE.test(before)) return false
  if (CURRENCY.test(before.slice(-5)) || CURRENCY.test(after.slice(0, 5))) return false
  // Years and dates: "2024", "12/05/2024", "May 2024", "2024-05-12".
  const digits = raw.replace(/[ -]/g, '')
  if (/^(19|20)\d\d$/.test(digits) && !/[:：]\s*$/.test(before)) return false
  if (/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*\d{0,2},?\s*$/i.test(before)) return false
  // Phone numbers: a leading "+", "(0xx)" or more digit groups around it.
  if (/(\+|\(\d{1,4}\)|\d[ -])\s*$/.test(before) || /^[ -]\d{2,}/.test(after)) return false
  // Inside a URL: "go.microsoft.com/fwlink/?LinkId=532972" (its own words may sit near the number).
  const token = before.slice(before.search(/\S*$/))
  if (/:\/\/|^www\./i.test(token)) return false
  // Addresses: a street number ("1200 Market St"), a ZIP after its state ("CA 94103") or before its city ("10115 Berlin").
  if (STREET_AFTER.test(after + src.slice(at + raw.length + 12, at + raw.length + 30))) return false
  if (/,\s*[A-Z]{2}\s+$/.test(before) || (/,\s*$/.test(before) && /^ \p{Lu}\p{Ll}{2,}/u.test(after))) return false
  // Times and units: "1200 pm", "2048 MB", "1500 km".
  if (/^\s*(am|pm|h|hrs?|min|mins|ms|kb|mb|gb|tb|km|m|kg|g|lbs?|px|%|st|nd|rd|th)\b/i.test(after)) return false
  return true
}

const LINK_WORDS =
  /(verif|confirm|activat|validat|magic|sign[-_ ]?in|signin|log[-_ ]?in|login|auth|token|otp|reset|passwordless|one[-_]?time|onboard|welcome\/|invite|accept|bestätig|confirmer|confirmar|verificar|verifica|conferma|bevestig|bekräfta|bekreft|bekræft|potwierdź|doğrula|подтверд|войти|確認|認証|验证|確認|인증|تأكيد|אמת|אשר|ยืนยัน|xác nhận|verifikasi|επιβεβαίω|पुष्टि)/i
const NOT_LINK = /(unsubscribe|opt[-_]?out|preferences|privacy|terms|policy|support|help|facebook|twitter|instagram|linkedin|youtube|tiktok|\.(png|jpe?g|gif|svg|css|js)(\?|$))/i

/** A plain-text URL: bounded, so a URL of a million characters costs one step per character, not a rescan per position. */
const TEXT_URL = /https?:\/\/[^\s<>"')\]]{1,2048}/gi

/**
 * Finds verification, confirmation and sign-in links among the anchors of the HTML (see scanHtml) or, failing that,
 * in the first part of the text.
 */
export function extractLinks(anchors: readonly Anchor[], text: string, limits: DeriveLimits = DEFAULT_DERIVE_LIMITS): VerificationLink[] {
  const seen = new Set<string>()
  const links: VerificationLink[] = []
  const consider = (rawUrl: string, label: string): void => {
    if (links.length >= 3 || rawUrl.length > limits.maxLinkUrlChars) return
    const url = rawUrl.trim()
    if (!/^https?:\/\//i.test(url) || seen.has(url)) return
    const cleanLabel = label.replace(/\s+/g, ' ').trim()
    let pathAndQuery: string
    try {
      const u = new URL(url)
      pathAndQuery = decodeURIComponent(u.pathname + u.search)
    } catch {
      return
    }
    if (NOT_LINK.test(pathAndQuery) || NOT_LINK.test(cleanLabel)) return
    if (!LINK_WORDS.test(pathAndQuery) && !LINK_WORDS.test(cleanLabel)) return
    seen.add(url)
    links.push({ url, label: cleanLabel.slice(0, 120) || labelFor(pathAndQuery) })
  }
  for (const a of anchors) consider(a.href, a.label)
  const scanned = text.slice(0, limits.textScanChars)
  for (const m of scanned.matchAll(TEXT_URL)) {
    if (links.length >= 3) break
    // A URL longer than the bound is no link we offer: skip to the end of it.
    if (m[0].length === 2048) continue
    const url = trimTrailingPunctuation(decodeBasicEntities(m[0]))
    const lineStart = scanned.lastIndexOf('\n', m.index) + 1
    let context = scanned.slice(Math.max(lineStart, m.index - 80), m.index).trim()
    if (context === '' && lineStart > 0) {
      // A link alone on its line is usually introduced by the line before it.
      const previousEnd = lineStart - 1
      const previousStart = scanned.lastIndexOf('\n', previousEnd - 1) + 1
      const line = scanned.slice(previousStart, previousEnd).trim()
      if (line.length <= 120) context = line
    }
    consider(url, decodeBasicEntities(trimTrailingDashes(context)))
  }
  return links
}

/** Sentence punctuation after a URL is not part of it (a loop: a `[.,]+$` regex rescans a run of dots per position). */
function trimTrailingPunctuation(url: string): string {
  let end = url.length
  while (end > 0 && '.,;:!?'.includes(url[end - 1]!)) end--
  return url.slice(0, end)
}

function trimTrailingDashes(label: string): string {
  let end = label.length
  while (end > 0 && ':-–'.includes(label[end - 1]!)) end--
  return label.slice(0, end).trim()
}

function labelFor(pathAndQuery: string): string {
  if (/sign[-_ ]?in|log[-_ ]?in|magic|auth/i.test(pathAndQuery)) return 'Sign-in link'
  if (/reset/i.test(pathAndQuery)) return 'Password reset link'
  return 'Verification link'
}

/** Codes and links of a message; `html` is read through one tokenizer pass over its first part. */
export function extractVerification(subject: string, text: string, html: string | null, limits: DeriveLimits = DEFAULT_DERIVE_LIMITS): Verification {
  const anchors = html ? scanHtml(html, limits).anchors : []
  const codeDetails = extractCodeDetails(subject, text, limits)
  return { codes: codeDetails.map((d) => d.code), codeDetails, links: extractLinks(anchors, text, limits) }
}
