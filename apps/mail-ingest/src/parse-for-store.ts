import { toStoredSource } from '@tempbox/db/message-source'
import { deriveSearchCopy, deriveView } from './derive-view.js'
import { parseMessage } from './parse-message.js'
import type { ParseRequest } from './pipeline-messages.js'
import type { MessageToStore } from './store-message.js'

/**
 * A received message parsed and derived for the writer, on whichever thread parses it (a parse worker, the store
 * thread, or the SMTP thread with SMTP_PARSE_WORKERS=0). The body is split from `bytes` here, so only the header block
 * is stored when the body is the text.
 */
export async function parseForStore(
  bytes: Buffer,
  { inboxIds, receivedAt, envelope, deliveries }: Omit<ParseRequest, 'id' | 'raw'>,
  searchTextChars: number,
): Promise<MessageToStore> {
  const parsed = await parseMessage(bytes)
  const source = toStoredSource(bytes, parsed.text, parsed.plainBodyStart)
  const derived = deriveView(parsed)
  const search = deriveSearchCopy(parsed, derived, searchTextChars)
  return { inboxIds, receivedAt, source, parsed, derived, search, ...(envelope ? { envelope } : {}), ...(deliveries ? { deliveries } : {}) }
}
