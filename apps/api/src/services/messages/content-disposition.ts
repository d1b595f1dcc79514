/**
 * `Content-Disposition: attachment` with an ASCII fallback name and the exact name in RFC 5987 form, so non-ASCII
 * filenames survive in every browser, and quotes, slashes or control characters in a sender's filename can't break
 * the header.
 */
export function attachmentDisposition(filename: string): string {
  const clean = filename.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim() || 'download'
  const ascii = clean.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '_').replace(/["%;]/g, '_')
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}

/** A download name for a whole message: its subject (trimmed to something a file system accepts) or its id. */
export function emlFilename(subject: string, id: number): string {
  const base = subject.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 100)
  return `${base || `message-${id}`}.eml`
}

/** Keeps a declared MIME type only when it is well-formed; anything else downloads as bytes. */
export function safeContentType(type: string): string {
  const t = type.trim().toLowerCase()
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(t) ? t : 'application/octet-stream'
}
