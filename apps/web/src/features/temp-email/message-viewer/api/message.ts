import type { FullMessage } from '@tempbox/types'
import useSWR, { useSWRConfig } from 'swr'
import { apiJson, apiRequest } from '../../../../lib/api-client'

export function messageUrl(address: string, id: string): string {
  return `/api/email/${encodeURIComponent(address)}/messages/${encodeURIComponent(id)}`
}

export function rawUrl(address: string, id: string): string {
  return `${messageUrl(address, id)}/raw`
}

export function attachmentUrl(address: string, id: string, index: number): string {
  return `${messageUrl(address, id)}/attachments/${index}`
}

/** The full message (text, sanitized html, headers, attachments), fetched when a message is expanded. */
export function useMessage(address: string, id: string) {
  const url = messageUrl(address, id)
  // The sender check finishes a moment after the message arrives: ask again while the copy held says "checking". A
  // number, not a function: SWR re-arms its poll timer whenever the option changes (a new function each render, and
  // the inbox re-renders every second) and asks a function only at mount and after its own polls, not after a fetch.
  const held = useSWRConfig().cache.get(url)?.data as FullMessage | undefined
  return useSWR<FullMessage>(url, (key: string) => apiJson<FullMessage>('GET', key), {
    refreshInterval: held?.auth?.status === 'checking' ? SENDER_CHECK_POLL_MS : 0,
  })
}

/** The check usually takes well under a second; DNS timeouts can make it a few. */
const SENDER_CHECK_POLL_MS = 1500

/** `init.keepalive` lets a deletion sent as the page goes away still reach the server. */
export async function deleteMessage(address: string, id: string, init?: RequestInit): Promise<void> {
  await apiRequest('DELETE', messageUrl(address, id), undefined, init)
}
