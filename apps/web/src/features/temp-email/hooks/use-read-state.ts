import type { InboxResponse, MessageSummary } from '@tempbox/types'
import { useCallback, useEffect, useState } from 'react'
import { useSWRConfig } from 'swr'
import { inboxUrl } from '../api/inbox'
import { markMessageRead } from '../api/read-state'

/**
 * Read state as the reader sees it: the server's `read` flags, plus the messages opened here since, so a row turns
 * normal at once in every list that shows it (first page, older pages, search results) without waiting for a poll.
 */
export function useReadState(email: string | null) {
  const { mutate } = useSWRConfig()
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set())
  useEffect(() => setOpened(new Set()), [email])

  const isUnread = useCallback((message: MessageSummary) => !message.read && !opened.has(message.id), [opened])

  /** The reader opened `message`: shown read now, the first page's unread count lowered, the server told. */
  const markRead = useCallback(
    (message: MessageSummary) => {
      if (!email || !isUnread(message)) return
      setOpened((current) => new Set(current).add(message.id))
      const key = inboxUrl(email)
      void mutate<InboxResponse>(
        key,
        (page) => {
          if (!page) return page
          const listed = page.messages.find((m) => m.id === message.id)
          if (listed?.read) return page
          return {
            ...page,
            unread: Math.max(0, page.unread - 1),
            messages: page.messages.map((m) => (m.id === message.id ? { ...m, read: true } : m)),
          }
        },
        { revalidate: false },
      )
      // If the server did not take it, the next poll shows the message unread again, as it is.
      markMessageRead(email, message.id).catch(() => {
        setOpened((current) => {
          const next = new Set(current)
          next.delete(message.id)
          return next
        })
        void mutate(key)
      })
    },
    [email, isUnread, mutate],
  )

  return { isUnread, markRead }
}
