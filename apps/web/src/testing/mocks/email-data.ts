import type { FullMessage, InboxMessage } from '@tempbox/types'

/** An inbox row as the API answers it. */
export function inboxMessage(overrides: Partial<InboxMessage> = {}): InboxMessage {
  return {
    id: '1',
    subject: 'Welcome aboard',
    sender: 'Alice Example <alice@example.com>',
    fromName: 'Alice Example',
    fromAddress: 'alice@example.com',
    content: 'Hello! '.repeat(30),
    receivedAt: new Date().toISOString(),
    hasHtml: false,
    attachmentCount: 0,
    verification: { codes: [], links: [] },
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
    text: 'Hello from the text part',
    content: 'Hello from the text part',
    html: null,
    hasRemoteContent: false,
    htmlWithheld: null,
    headers: [
      { name: 'From', value: base.sender },
      { name: 'Subject', value: base.subject },
    ],
    attachments: [],
    verification: { codes: [], links: [] },
    ...overrides,
  }
}
