import { useCallback, useEffect, useState } from 'react'
import useSWR, { useSWRConfig } from 'swr'
import { fetchOlder, useInbox } from '../api/inbox'
import { mergeMessages, olderKey, visibleMessages, type OlderMessages } from '../lib/inbox-cache'

/** Older pages live in the SWR cache only as client state: SWR must never fetch that key itself. */
const LOCAL_ONLY = { revalidateOnMount: false, revalidateIfStale: false, revalidateOnFocus: false, revalidateOnReconnect: false, refreshInterval: 0 }

/**
 * The inbox as the reader sees it: the newest page (polled every 10 s, kept current by the event stream) and the
 * older pages asked for with `loadOlder`, with the inbox's total.
 */
export function useInboxMessages(email: string | null) {
  const { mutate } = useSWRConfig()
  const first = useInbox(email)
  const older = useSWR<OlderMessages>(email ? olderKey(email) : null, null, LOCAL_ONLY)
  const [loadingOlder, setLoadingOlder] = useState(false)

  // Once older pages are shown, what a newer arrival pushes off the first page must stay in view.
  const firstMessages = first.data?.messages
  useEffect(() => {
    if (!email || !firstMessages) return
    void mutate<OlderMessages>(
      olderKey(email),
      (current) => current && { ...current, messages: mergeMessages(current.messages, firstMessages) },
      { revalidate: false },
    )
  }, [email, firstMessages, mutate])

  const messages = visibleMessages(first.data, older.data)
  const hasMore = older.data ? !older.data.end : (first.data?.nextBefore ?? null) !== null
  const oldestId = messages.at(-1)?.id

  /** Fetches the page below the oldest message shown; rejects when that fails. */
  const loadOlder = useCallback(async () => {
    if (!email || !oldestId) return
    setLoadingOlder(true)
    try {
      const page = await fetchOlder(email, oldestId)
      await mutate<OlderMessages>(
        olderKey(email),
        (current) => ({ messages: mergeMessages(current?.messages ?? [], page.messages), end: page.nextBefore === null }),
        { revalidate: false },
      )
    } finally {
      setLoadingOlder(false)
    }
  }, [email, oldestId, mutate])

  return {
    messages,
    total: first.data?.total ?? 0,
    unread: first.data?.unread ?? 0,
    /** The first page as fetched or pushed: where new mail appears. */
    newest: first.data?.messages,
    hasMore,
    loadingOlder,
    loadOlder,
    error: first.error as unknown,
  }
}
