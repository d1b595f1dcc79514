/** What people call a file, by its MIME type: the keys of `email.fileKind` in the translations. */
export type FileKind =
  | 'pdf' | 'image' | 'text' | 'web' | 'calendar' | 'archive' | 'document' | 'spreadsheet' | 'presentation'
  | 'audio' | 'video' | 'mail' | 'file'

const EXACT: Record<string, FileKind> = {
  'application/pdf': 'pdf',
  'text/plain': 'text',
  'text/csv': 'spreadsheet',
  'text/html': 'web',
  'text/calendar': 'calendar',
  'application/ics': 'calendar',
  'message/rfc822': 'mail',
  'application/msword': 'document',
  'application/rtf': 'document',
  'application/vnd.oasis.opendocument.text': 'document',
  'application/vnd.ms-excel': 'spreadsheet',
  'application/vnd.oasis.opendocument.spreadsheet': 'spreadsheet',
  'application/vnd.ms-powerpoint': 'presentation',
  'application/vnd.oasis.opendocument.presentation': 'presentation',
  'application/zip': 'archive',
  'application/x-zip-compressed': 'archive',
  'application/gzip': 'archive',
  'application/x-7z-compressed': 'archive',
  'application/x-rar-compressed': 'archive',
  'application/x-tar': 'archive',
}

/** The kind of file an attachment is, with the image format ("PNG") where that is what people say. */
export function fileKind(contentType: string): { kind: FileKind; format?: string } {
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  const exact = EXACT[type]
  if (exact) return { kind: exact }
  if (type.startsWith('image/')) {
    const sub = type.slice(6).replace(/^x-|^vnd\.[^+]*\+?|\+xml$/g, '')
    return { kind: 'image', format: (sub === 'jpg' ? 'jpeg' : sub || 'image').toUpperCase() }
  }
  if (type.startsWith('audio/')) return { kind: 'audio' }
  if (type.startsWith('video/')) return { kind: 'video' }
  if (type.includes('wordprocessingml')) return { kind: 'document' }
  if (type.includes('spreadsheetml')) return { kind: 'spreadsheet' }
  if (type.includes('presentationml')) return { kind: 'presentation' }
  return { kind: 'file' }
}
