import { appCspDirectives, serializeCsp } from './content-security-policy.js'

/** 180 days: long enough to matter, short enough to recover from a mistaken domain. */
const HSTS_MAX_AGE_SECONDS = 180 * 24 * 3600

export type HeaderSet = Readonly<Record<string, string>>

/** No content of its own may load or run, and nobody may frame it: an API answer opened as a page stays inert. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'"

/**
 * The two header sets, computed once. `document` is everything the web app's pages had under helmet: the app's CSP
 * (with the inline theme script's hash), no framing, COOP, Origin-Agent-Cluster and the legacy switches. `api` keeps
 * what protects a JSON answer, an event stream or a download: nosniff, CORP, no framing, no referrer, an inert CSP.
 */
export function securityHeaderSets(scriptHashes: readonly string[], hsts: boolean): { document: HeaderSet; api: HeaderSet; documentExtra: HeaderSet } {
  const common: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  }
  if (hsts) common['strict-transport-security'] = `max-age=${HSTS_MAX_AGE_SECONDS}`
  const documentExtra = {
    'cross-origin-opener-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  }
  const document = { 'content-security-policy': serializeCsp(appCspDirectives(scriptHashes)), ...common, ...documentExtra }
  const api = { 'content-security-policy': API_CSP, ...common }
  return { document: Object.freeze(document), api: Object.freeze(api), documentExtra: Object.freeze(documentExtra) }
}
