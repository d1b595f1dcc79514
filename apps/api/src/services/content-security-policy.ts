import { createHash } from 'node:crypto'

/** Classic inline `<script>` blocks (no `src`), as the browser hashes them: the exact text between the tags. */
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi

/**
 * CSP hash sources for the inline scripts of our own built index.html (the theme/direction script that must run
 * before first paint). Computed from the file actually served, so the policy stays right whenever the script changes.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const body = match[1] ?? ''
    if (body.trim() === '') continue
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`)
  }
  return hashes
}

export type CspDirectives = Record<string, string[]>

/**
 * The web app's policy. Two allowances are wider than `'self'` on purpose:
 * - `style-src 'unsafe-inline'`: the mail frame is a srcdoc iframe, which inherits this policy on top of its own, and
 *   mail layouts are inline styles and `<style>` blocks; Radix also injects `<style>` elements (scroll lock).
 * - `img-src https: http:`: the same inheritance — remote images in a mail load only after the reader asks
 *   ("Show images"), and the frame's own policy holds them back until then.
 */
export function appCspDirectives(scriptHashes: readonly string[]): CspDirectives {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scriptHashes],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'https:', 'http:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'frame-src': ["'self'"],
    // The word counter analyses long texts in a module worker of our own (/assets/…).
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'media-src': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  }
}

/** Swagger UI at /api/docs: its own files only (no inline script), inline styles for its layout. */
export const DOCS_CSP: CspDirectives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
}

export function serializeCsp(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ')
}
