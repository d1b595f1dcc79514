import type { DeletedEvent, MessageEvent as NewMessageEvent } from '@tempbox/types'
import { useEffect, useRef } from 'react'
import { useSWRConfig } from 'swr'
import { inboxUrl } from '../api/inbox'
import { addMessage, removeMessage } from '../lib/inbox-cache'

/** Delay before opening a new stream after the browser gave up on one (a non-200 answer closes EventSource for good). */
export const REOPEN_MS = 5_000

function parse<T>(event: globalThis.MessageEvent<string>): T | null {
  try {
    return JSON.parse(event.data) as T
  } catch {
    return null
  }
}

/**
 * Keeps the inbox cache current from `GET /api/email/{address}/events` (Server-Sent Events). EventSource
 * reconnects by itself after a dropped connection; the 10 s poll keeps working whenever the stream is down.
 */
export function useEmailStream(email: string | null, onExpired: () => void): void {
  const { mutate } = useSWRConfig()
  const onExpiredRef = useRef(onExpired)
  onExpiredRef.current = onExpired
  useEffect(() => {
    if (!email || typeof EventSource === 'undefined') return
    const key = inboxUrl(email)
    let source: EventSource | null = null
    let reopenTimer: ReturnType<typeof setTimeout> | undefined
    let closed = false

    const open = () => {
      source = new EventSource(`${key}/events`, { withCredentials: true })
      source.addEventListener('message', (event) => {
        const data = parse<NewMessageEvent>(event as globalThis.MessageEvent<string>)
        if (!data?.message) {
          void mutate(key)
          return
        }
        void addMessage(mutate, email, data.message)
      })
      source.addEventListener('deleted', (event) => {
        const data = parse<DeletedEvent>(event as globalThis.MessageEvent<string>)
        if (!data) return
        void removeMessage(mutate, email, data.id)
      })
      source.addEventListener('expired', () => {
        closed = true
        source?.close()
        onExpiredRef.current()
      })
      source.addEventListener('error', () => {
        if (!closed && source?.readyState === EventSource.CLOSED) reopenTimer = setTimeout(open, REOPEN_MS)
      })
    }
    open()
    return () => {
      closed = true
      clearTimeout(reopenTimer)
      source?.close()
    }
  }, [email, mutate])
}
