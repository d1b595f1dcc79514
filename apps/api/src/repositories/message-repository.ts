/**
 * A message's reads and writes, one file per concern: listing and paging, the view's rows, the text part, read state
 * and delete. Callers import them all from here.
 */
export { findViewHeaders, VIEW_HEADER_LIMITS, type ViewHeader } from '@tempbox/db'
export {
  findListRowsByIds, inboxCounts, listInboxPage, listNewMessageIds, maxInboxMessageId, maxMessageId, LIST_TEXT_CHARS, type ListRow,
} from './message-list-repository.js'
export {
  findFirstMessageAfter, findMessage, findMessageForView, findMessagesByIds, findRawMessage, findViewBodyBytes, listMessagesAfter, VIEW_SUBJECT_CHARS,
  type MessageSummaryRow, type MessageViewRow,
} from './message-view-repository.js'
export { findViewText, findViewTextBytes, utf8Head, type ViewText, type ViewTextBytes } from './message-text-repository.js'
export { deleteMessage, setMessageRead } from './message-state-repository.js'
