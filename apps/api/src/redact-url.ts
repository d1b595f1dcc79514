/**
 * Request URLs as production logs show them. Live inbox addresses, looked-up IPs and short-link codes belong to the
 * people who hold them (anyone reading a log line could open the inbox), so those path segments are replaced, and so
 * is every query value. A segment holding an `@` counts as an address wherever it appears: a client can put one in
 * any path (the web app answers unknown paths too). Cost is linear in the URL, which Node caps with the header size.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?')
  const segments = (q === -1 ? url : url.slice(0, q)).split('/')
  const [, first, second] = segments
  const path = segments.map((segment, i) => {
    if (segment === '') return segment
    if (first === 'api' && second === 'email' && i === 3 && !FIXED_EMAIL_PATHS.has(segment)) return '[address]'
    if (first === 'api' && second === 'ip' && i === 3) return '[ip]'
    if (first === 's' && i === 2) return '[code]'
    if (/@|%40/i.test(segment)) return '[address]'
    if (LOOKS_LIKE_IP.test(segment)) return '[ip]'
    return segment
  })
  return path.join('/') + (q === -1 ? '' : `?${redactQuery(url.slice(q + 1))}`)
}

/** `/api/email/{these}` are routes of their own, not addresses. */
const FIXED_EMAIL_PATHS = new Set(['domains', 'generate'])

/** Dotted IPv4, or anything with a colon (IPv6, raw or percent-encoded). */
const LOOKS_LIKE_IP = /^(\d{1,3}\.){3}\d{1,3}$|:|%3a/i

/** A parameter name worth keeping in a log line; anything else may itself be data. */
const PLAIN_NAME = /^[a-z][a-z0-9_-]{0,31}$/i

/** Keeps plain parameter names (useful when reading a log), never values. */
function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0]!
      return PLAIN_NAME.test(name) ? `${name}=…` : '…'
    })
    .join('&')
}
