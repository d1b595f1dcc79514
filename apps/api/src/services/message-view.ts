import type { AttachmentInfo, FullMessage, InboxMessage, MailAddress, MailHeader } from '@tempbox/types'
import type { MessageSummaryRow } from '../repositories/message-repository.js'
import type { AttachmentMetaRow } from '../repositories/attachment-repository.js'
import { htmlToText } from './html-text.js'
import { sanitizeMailHtml } from './sanitize-html.js'
import { extractVerification } from './verification.js'

export function senderDisplay(name: string, address: string): string {
  if (name && address && name !== address) return `${name} <${address}>`
  return address || name || '(unknown sender)'
}

/** The text people read: the text part, or a rendering of the HTML when there is none. */
export function plainContent(row: Pick<MessageSummaryRow, 'text' | 'html'>): string {
  if (row.text && row.text.trim() !== '') return row.text
  if (row.html) return htmlToText(row.html)
  return ''
}

/** The list form of a message (text rendering and code search cost ~ms: InboxService caches the result). */
export function buildInboxMessage(row: MessageSummaryRow): InboxMessage {
  const content = plainContent(row)
  return {
    id: String(row.id),
    subject: row.subject,
    sender: senderDisplay(row.from_name, row.from_address),
    fromName: row.from_name,
    fromAddress: row.from_address,
    content,
    receivedAt: new Date(row.received_at).toISOString(),
    hasHtml: !!row.html,
    attachmentCount: row.attachment_count,
    verification: extractVerification(row.subject, content, row.html),
  }
}

export function attachmentUrl(address: string, messageId: number, index: number): string {
  return `/api/email/${encodeURIComponent(address)}/messages/${messageId}/attachments/${index}`
}

export function toFullMessage(address: string, row: MessageSummaryRow, attachments: AttachmentMetaRow[], list: InboxMessage): FullMessage {
  const byCid = new Map<string, number>()
  for (const a of attachments) if (a.content_id) byCid.set(normalizeCid(a.content_id), a.position)
  const sanitized = row.html
    ? sanitizeMailHtml(row.html, {
        cidUrl: (cid) => {
          const index = byCid.get(normalizeCid(cid))
          return index === undefined ? null : attachmentUrl(address, row.id, index)
        },
      })
    : null
  return {
    id: list.id,
    subject: row.subject,
    sender: list.sender,
    fromName: row.from_name,
    fromAddress: row.from_address,
    to: parseRecipients(row.recipients),
    date: row.sent_at ? new Date(row.sent_at).toISOString() : null,
    receivedAt: list.receivedAt,
    size: row.size,
    text: row.text,
    content: list.content,
    html: sanitized?.html ?? null,
    hasRemoteContent: sanitized?.hasRemoteContent ?? false,
    headers: parseHeaders(row.headers),
    attachments: attachments.map(
      (a): AttachmentInfo => ({
        index: a.position,
        filename: a.filename,
        contentType: a.content_type,
        size: a.size,
        contentId: a.content_id ? stripAngles(a.content_id) : null,
        inline: a.is_inline === 1,
      }),
    ),
    verification: list.verification,
  }
}

function stripAngles(cid: string): string {
  return cid.trim().replace(/^<|>$/g, '')
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

function parseHeaders(json: string): MailHeader[] {
  try {
    const value: unknown = JSON.parse(json)
    if (!Array.isArray(value)) return []
    return value.flatMap((h): MailHeader[] => {
      if (Array.isArray(h) && h.length >= 2) return [{ name: String(h[0]), value: String(h[1]) }]
      if (h && typeof h === 'object' && 'name' in h) {
        const o = h as { name: unknown; value?: unknown }
        return [{ name: String(o.name), value: String(o.value ?? '') }]
      }
      return []
    })
  } catch {
    return []
  }
}
