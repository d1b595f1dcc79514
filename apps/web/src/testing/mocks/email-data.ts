import type { FullMessage, InboxResponse, MessageSummary } from '@tempbox/types'

/** An inbox row (a message summary) as the API answers it. */
export function inboxMessage(overrides: Partial<MessageSummary> = {}): MessageSummary {
  return {
    id: '1',
    subject: 'Welcome aboard',
    sender: 'Alice Example <alice@example.com>',
    fromName: 'Alice Example',
    fromAddress: 'alice@example.com',
    preview: 'Hello! '.repeat(30).trim().slice(0, 100),
    receivedAt: new Date().toISOString(),
    size: 1234,
    hasHtml: false,
    attachmentCount: 0,
    verification: { codes: [], codeDetails: [], links: [] },
    read: false,
    ...overrides,
  }
}

/** A full message as `GET …/messages/{id}` answers it. */
export function fullMessage(overrides: Partial<FullMessage> = {}): FullMessage {
  const base = inboxMessage()
  return {
    id: base.id,
    subject: base.subject,
    sender: base.sender,
    fromName: base.fromName,
    fromAddress: base.fromAddress,
    to: [{ name: '', address: 'test@tempbox.test' }],
    date: base.receivedAt,
    receivedAt: base.receivedAt,
    size: 1234,
    hasTextPart: true,
    content: 'Hello from the text part',
    contentTruncated: false,
    html: null,
    hasRemoteContent: false,
    htmlWithheld: null,
    headers: [
      { name: 'From', value: base.sender },
      { name: 'Subject', value: base.subject },
    ],
    attachments: [],
    verification: { codes: [], codeDetails: [], links: [] },
    ...overrides,
  }
}

/** A page of the inbox listing: messages newest (largest id) first, at most `limit`, older than `before`. */
export function inboxPage(all: readonly MessageSummary[], limit = 50, before: string | null = null): InboxResponse {
  const sorted = [...all].sort((a, b) => Number(b.id) - Number(a.id))
  const below = before === null ? sorted : sorted.filter((m) => Number(m.id) < Number(before))
  const messages = below.slice(0, limit)
  return { messages, total: all.length, unread: all.filter((m) => !m.read).length, nextBefore: below.length > limit ? messages.at(-1)!.id : null }
}
