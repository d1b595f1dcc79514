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
 * The web app's policy: the directives, plus a few that are stricter than their `default-src 'self'` fallback.
 * Mail is not shown under it: the mail frame loads its own document (`…/messages/{id}/frame`), which is served with a
 * policy of its own (mailDocumentCsp), so this one needs no remote images and no inline styles. The app's own inline
 * styles are React `style` props, set through the CSSOM, which a CSP does not govern.
 */
export function appCspDirectives(scriptHashes: readonly string[]): CspDirectives {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scriptHashes],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    // The mail frame's document is ours.
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
