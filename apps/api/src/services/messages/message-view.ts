import type { AttachmentInfo, CodeDetail, FullMessage, MailAddress, MessageSummary, Verification, VerificationLink } from '@tempbox/types'
import type { HtmlWithheld } from '@tempbox/mail-derive'
import { mailDerive } from './mail-derive-module.js'
import { LIST_TEXT_CHARS, VIEW_SUBJECT_CHARS, type ListRow, type MessageSummaryRow, type ViewHeader, type ViewText } from '../../repositories/message-repository.js'
import type { AttachmentMetaRow } from '../../repositories/attachment-repository.js'

export function senderDisplay(name: string, address: string): string {
  if (name && address && name !== address) return `${name} <${address}>`
  return address || name || '(unknown sender)'
}

/** The text people read: the text part (its bounded beginning), or the stored rendering of the HTML when there is none. */
function plainContent(view: ViewText, row: Pick<MessageSummaryRow, 'html_text'>): { content: string; hasTextPart: boolean; contentTruncated: boolean } {
  if (view.text && view.text.trim() !== '') return { content: view.text, hasTextPart: true, contentTruncated: view.truncated }
  return { content: row.html_text ?? '', hasTextPart: false, contentTruncated: false }
}

/** The summary of a message, from its stored derived columns (stored at ingest, or by migration 2026_11_28_000801): no parsing here. */
export function buildSummary(row: ListRow): MessageSummary {
  return {
    ...listHeader(row),
    preview: row.preview,
    hasHtml: row.has_html === 1,
    verification: storedVerification(row),
  }
}

/**
 * What can be shown of a message whose view could not be built (a bug meeting a strange message): its envelope and
 * nothing derived. The inbox still lists it, and the .eml download still works.
 */
export function fallbackSummary(row: ListRow): MessageSummary {
  return { ...listHeader(row), preview: '', hasHtml: false, verification: { codes: [], codeDetails: [], links: [] } }
}

/** A whole row in the shape the listing reads (the event stream and long poll have whole rows). */
export function listRowOf(row: MessageSummaryRow): ListRow {
  return {
    id: row.id,
    subject: row.subject.slice(0, LIST_TEXT_CHARS.subject),
    from_name: row.from_name.slice(0, LIST_TEXT_CHARS.sender),
    from_address: row.from_address.slice(0, LIST_TEXT_CHARS.sender),
    received_at: row.received_at,
    size: row.size,
    attachment_count: row.attachment_count,
    derived_version: row.derived_version,
    preview: row.preview,
    codes: row.codes,
    links: row.links,
    read_at: row.read_at,
    has_html: row.has_html,
  }
}

function listHeader(row: ListRow): Omit<MessageSummary, 'preview' | 'hasHtml' | 'verification'> {
  return {
    id: String(row.id),
    subject: row.subject,
    sender: senderDisplay(row.from_name, row.from_address),
    fromName: row.from_name,
    fromAddress: row.from_address,
    receivedAt: isoTime(row.received_at) ?? new Date(0).toISOString(),
    size: row.size ?? 0,
    attachmentCount: row.attachment_count ?? 0,
    read: row.read_at !== null,
  }
}

/** ISO form of epoch ms; null for a value no Date can hold (which toISOString would throw on). */
function isoTime(ms: number | null): string | null {
  if (ms === null) return null
  const date = new Date(ms)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

function storedVerification(row: Pick<MessageSummaryRow, 'codes' | 'links'>): Verification {
  const codeDetails = parseJsonArray(row.codes).flatMap(storedCode)
  const links = parseJsonArray(row.links).flatMap((l): VerificationLink[] =>
    l && typeof l === 'object' && typeof (l as VerificationLink).url === 'string' && typeof (l as VerificationLink).label === 'string'
      ? [{ url: (l as VerificationLink).url, label: (l as VerificationLink).label }]
      : [],
  )
  return { codes: codeDetails.map((d) => d.code), codeDetails, links }
}

/**
 * One stored code: a CodeDetail, or a bare string from a row derived before details were kept (migration
 * 2026_11_28_000801 derives those again; this copes with any left, e.g. written by an older ingest meanwhile).
 */
function storedCode(value: unknown): CodeDetail[] {
  if (typeof value === 'string') return [{ code: value, source: '', reason: 'digits_only', label: null, position: 0 }]
  if (!value || typeof value !== 'object') return []
  const c = value as Partial<CodeDetail>
  if (typeof c.code !== 'string') return []
  return [{
    code: c.code,
    source: typeof c.source === 'string' ? c.source : '',
    reason: c.reason === 'labelled' || c.reason === 'mixed' ? c.reason : 'digits_only',
    label: typeof c.label === 'string' ? c.label : null,
    position: typeof c.position === 'number' && Number.isSafeInteger(c.position) && c.position >= 0 ? c.position : 0,
  }]
}

function parseJsonArray(json: string): unknown[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value : []
  } catch {
    return []
  }
}

export function attachmentUrl(address: string, messageId: number, index: number): string {
  return `/api/email/${encodeURIComponent(address)}/messages/${messageId}/attachments/${index}`
}

export async function toFullMessage(
  address: string,
  row: MessageSummaryRow,
  view: ViewText,
  headers: { headers: ViewHeader[]; more: boolean },
  attachments: { attachments: AttachmentMetaRow[]; more: boolean },
): Promise<FullMessage> {
  const { resolveAttachmentRefs, stripAngles } = await mailDerive()
  return {
    id: String(row.id),
    // An ellipsis marks a cut subject (see VIEW_SUBJECT_CHARS).
    subject: row.subject.length > VIEW_SUBJECT_CHARS ? `${row.subject.slice(0, VIEW_SUBJECT_CHARS)}…` : row.subject,
    sender: senderDisplay(row.from_name, row.from_address),
    fromName: row.from_name,
    fromAddress: row.from_address,
    to: parseRecipients(row.recipients),
    date: row.sent_at ? isoTime(row.sent_at) : null,
    receivedAt: isoTime(row.received_at) ?? new Date(0).toISOString(),
    size: row.size,
    ...plainContent(view, row),
    html: row.safe_html === null ? null : resolveAttachmentRefs(row.safe_html, (index) => attachmentUrl(address, row.id, index)),
    hasRemoteContent: row.has_remote_content === 1,
    htmlWithheld: withheldReason(row.html_withheld),
    // `truncated` only where a value was cut, so ordinary headers cost no more on the wire than before.
    headers: headers.headers.map((h) => (h.truncated ? h : { name: h.name, value: h.value })),
    headersTruncated: headers.more,
    attachments: attachments.attachments.map(
      (a): AttachmentInfo => ({
        index: a.position,
        filename: a.filename,
        contentType: a.content_type,
        size: a.size,
        contentId: a.content_id ? stripAngles(a.content_id) : null,
        inline: a.is_inline === 1,
      }),
    ),
    attachmentCount: row.attachment_count,
    attachmentsTruncated: attachments.more,
    verification: storedVerification(row),
  }
}

function withheldReason(value: string | null): HtmlWithheld | null {
  return value === 'too_large' || value === 'unrenderable' ? value : null
}

function parseRecipients(json: string): MailAddress[] {
  try {
    const value: unknown = JSON.parse(json)
    if (!Array.isArray(value)) return []
    return value
      .filter((r): r is { name?: unknown; address?: unknown } => typeof r === 'object' && r !== null)
      .map((r) => ({ name: typeof r.name === 'string' ? r.name : '', address: typeof r.address === 'string' ? r.address : '' }))
  } catch {
    return []
  }
}
