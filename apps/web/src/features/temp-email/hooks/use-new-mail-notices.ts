import type { MessageSummary } from '@tempbox/types'
import { useCallback, useRef, useState } from 'react'
import type { useInboxMessages } from './use-inbox-messages'
import { useNewMailAlerts } from './use-new-mail-alerts'
import { useNewMailToast } from './use-new-mail-toast'
import type { Notify } from './use-notify'
import { useUnreadTitle } from './use-unread-title'

interface NewMailNoticesOptions {
  email: string | null
  inbox: ReturnType<typeof useInboxMessages>
  /** Opens a message in the list (and reads it, as any opened one). */
  open: (message: MessageSummary | undefined, id: string) => void
  notify: Notify
  onCopyCode: (code: string) => void
}

/** Every way new mail is told: the tab's title, desktop alerts, and the toast and pill while the list is out of view. */
export function useNewMailNotices({ email, inbox, open, notify, onCopyCode }: NewMailNoticesOptions) {
  useUnreadTitle(email ? inbox.unread : 0)
  // A notification (or the delivery log's link) clicked opens its message, which is then read like any opened one.
  const openMessage = useCallback(
    (id: string) => {
      open(inbox.newest?.find((m) => m.id === id), id)
      requestAnimationFrame(() => document.getElementById(`message-row-${id}`)?.scrollIntoView?.({ block: 'center' }))
    },
    [inbox.newest, open],
  )
  useNewMailAlerts(email, inbox.newest, openMessage)

  // Mail that arrives while the message list is scrolled away is announced in a toast and the pill by the address.
  const [inboxList, setInboxList] = useState<HTMLDivElement | null>(null)
  const inboxHeading = useRef<HTMLHeadingElement>(null)
  const { unseen } = useNewMailToast(email, inbox.messages, inboxList, notify, onCopyCode)
  const showInbox = () => {
    inboxHeading.current?.scrollIntoView({ behavior: 'smooth', block: 'start' })
    inboxHeading.current?.focus({ preventScroll: true })
  }

  return { openMessage, unseen, showInbox, inboxHeading, listMarkerRef: setInboxList }
}
