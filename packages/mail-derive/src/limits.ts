/**
 * How much of a message any derivation reads. Every extractor scans at most these prefixes, so the work per message is
 * bounded whatever its size: a 10 MB body costs what its first few hundred kilobytes cost.
 */
export interface DeriveLimits {
  /** Characters of HTML read for links, text rendering and depth checks. */
  htmlScanChars: number
  /** HTML longer than this is not rendered: the reader sees the text and a note to download the .eml. */
  htmlDisplayChars: number
  /** HTML weighing more tokens than this (scanHtml's count: tags, attributes, text runs) is not rendered. */
  maxHtmlTokens: number
  /** Open elements deeper than this make HTML "too strange to render" (and would make parsing quadratic). */
  maxHtmlDepth: number
  /** Characters of plain text searched for links. */
  textScanChars: number
  /** Characters of plain text searched for one-time codes (they sit near the top of a mail). */
  codeScanChars: number
  /** Characters of the subject searched for codes. */
  subjectScanChars: number
  /** Characters of a text rendering of HTML kept (the `content` of an HTML-only message). */
  htmlTextChars: number
  /** Characters of the list preview. */
  previewChars: number
  /** A style attribute or <style> block longer than this is dropped rather than cleaned. */
  maxCssChars: number
  /** Longest URL considered as a verification link. */
  maxLinkUrlChars: number
  /** Anchors looked at for links (the first ones: verification links sit at the top). */
  maxAnchors: number
}

export const DEFAULT_DERIVE_LIMITS: Readonly<DeriveLimits> = Object.freeze({
  htmlScanChars: 256 * 1024,
  htmlDisplayChars: 256 * 1024,
  maxHtmlTokens: 20_000,
  maxHtmlDepth: 400,
  textScanChars: 64 * 1024,
  codeScanChars: 20 * 1024,
  subjectScanChars: 1024,
  htmlTextChars: 64 * 1024,
  previewChars: 100,
  maxCssChars: 64 * 1024,
  maxLinkUrlChars: 2048,
  maxAnchors: 500,
})
