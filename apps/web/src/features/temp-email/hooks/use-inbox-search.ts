import { useCallback, useEffect, useState } from 'react'
import useSWR from 'swr'
import type { InboxResponse, MessageSummary } from '@tempbox/types'
import { fetchInbox, inboxUrl } from '../api/inbox'

/** Typing pauses this long before a search is sent: one request per pause, not per key. */
export const SEARCH_DEBOUNCE_MS = 300

function searchUrl(email: string, q: string, before?: string): string {
  const params = new URLSearchParams({ q })
  if (before) params.set('before', before)
  return `${inboxUrl(email)}?${params}`
}

/**
 * An inbox search (`?q=`): the text as typed, the debounced query sent to the server, its first page (kept fresh like
 * the inbox) and the older matching pages fetched with `loadOlder`. `active` is false while the box is empty.
 */
export function useInboxSearch(email: string | null) {
  const [text, setText] = useState('')
  const [query, setQuery] = useState('')
  const [older, setOlder] = useState<{ query: string; messages: MessageSummary[]; end: boolean } | null>(null)
  const [loadingOlder, setLoadingOlder] = useState(false)

  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text])
  useEffect(() => {
    setText('')
    setQuery('')
  }, [email])

  const first = useSWR<InboxResponse>(email && query ? searchUrl(email, query) : null, fetchInbox, { keepPreviousData: false })
  const olderPages = older && older.query === query ? older : null
  const messages = [...(first.data?.messages ?? []), ...(olderPages?.messages ?? [])]
  const hasMore = olderPages ? !olderPages.end : (first.data?.nextBefore ?? null) !== null
  const oldestId = messages.at(-1)?.id

  const loadOlder = useCallback(async () => {
    if (!email || !query || !oldestId) return
    setLoadingOlder(true)
    try {
      const page = await fetchInbox(searchUrl(email, query, oldestId))
      setOlder((current) => ({
        query,
        messages: [...(current?.query === query ? current.messages : []), ...page.messages],
        end: page.nextBefore === null,
      }))
    } finally {
      setLoadingOlder(false)
    }
  }, [email, query, oldestId])

  return {
    text,
    setText,
    clear: () => {
      setText('')
      setQuery('')
    },
    active: query !== '',
    searching: query !== '' && first.data === undefined && first.error === undefined,
    messages,
    total: first.data?.total ?? 0,
    hasMore,
    loadingOlder,
    loadOlder,
    error: first.error as unknown,
  }
}
