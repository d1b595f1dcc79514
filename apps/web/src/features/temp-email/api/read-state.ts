import type { MessageReadState } from '@tempbox/types'
import { apiJson } from '../../../lib/api-client'
import { inboxUrl } from './inbox'

/** Tells the server the reader opened a message (reading it with GET does not: API clients must not mark mail). */
export function markMessageRead(email: string, id: string): Promise<MessageReadState> {
  return apiJson<MessageReadState>('PATCH', `${inboxUrl(email)}/messages/${encodeURIComponent(id)}`, { read: true })
}
