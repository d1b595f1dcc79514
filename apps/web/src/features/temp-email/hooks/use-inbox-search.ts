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
  const [older, setOlder] = useState<{ query: string; messages: MessageSummary[]; nextBefore: string | null; cut: boolean } | null>(null)
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
  // The server's cursor, not the oldest message shown: a search cut by its time budget goes on from where it stopped.
  const nextBefore = olderPages ? olderPages.nextBefore : (first.data?.nextBefore ?? null)
  const hasMore = nextBefore !== null
  const cut = olderPages ? olderPages.cut : first.data?.searchCut === true

  const loadOlder = useCallback(async () => {
    if (!email || !query || !nextBefore) return
    setLoadingOlder(true)
    try {
      const page = await fetchInbox(searchUrl(email, query, nextBefore))
      setOlder((current) => ({
        query,
        messages: [...(current?.query === query ? current.messages : []), ...page.messages],
        nextBefore: page.nextBefore,
        cut: page.searchCut === true,
      }))
    } finally {
      setLoadingOlder(false)
    }
  }, [email, query, nextBefore])

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
    /** The last page came from a search cut by the server's time budget: older mail is not searched yet. */
    cut,
    loadingOlder,
    loadOlder,
    error: first.error as unknown,
  }
}
