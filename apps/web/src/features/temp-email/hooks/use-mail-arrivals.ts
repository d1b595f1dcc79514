import type { MessageSummary } from '@tempbox/types'
import { useEffect, useRef } from 'react'

/**
 * Calls `onArrival` with the messages that came in after the inbox of `email` was first shown here — never with what
 * was listed then — and the time it was first shown. The new-mail toast and the desktop alerts announce only these.
 */
export function useMailArrivals(
  email: string | null,
  messages: readonly MessageSummary[] | undefined,
  onArrival: (arrived: readonly MessageSummary[], shownSince: number) => void,
): void {
  const newest = useRef<{ email: string | null; id: number; since: number } | null>(null)
  const onArrivalRef = useRef(onArrival)
  onArrivalRef.current = onArrival

  useEffect(() => {
    if (!messages) return
    const top = messages.reduce((max, m) => Math.max(max, Number(m.id)), 0)
    const seen = newest.current
    if (!seen || seen.email !== email) {
      newest.current = { email, id: top, since: Date.now() }
      return
    }
    if (top <= seen.id) return
    newest.current = { ...seen, id: top }
    onArrivalRef.current(messages.filter((m) => Number(m.id) > seen.id), seen.since)
  }, [email, messages])
}
