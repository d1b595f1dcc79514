import type { MessageSummary } from '@tempbox/types'
import type { Ref } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api-client'
import { MessageViewer } from '../message-viewer/components/message-viewer'
import { useCheckInbox } from '../hooks/use-check-inbox'
import type { useInboxMessages } from '../hooks/use-inbox-messages'
import type { useInboxSearch } from '../hooks/use-inbox-search'
import type { MessageSelection } from '../hooks/use-message-selection'
import type { Notify } from '../hooks/use-notify'
import { isGone } from '../lib/is-gone'
import { DeliveryLog } from './delivery-log'
import { InboxHeading } from './inbox-heading'
import { MessageList } from './message-list'
import { NewMailAlertsSettings } from './new-mail-alerts-settings'
import { OlderMessages } from './older-messages'
import { SearchBox } from './search-box'

interface InboxSectionProps {
  email: string
  now: number
  inbox: ReturnType<typeof useInboxMessages>
  search: ReturnType<typeof useInboxSearch>
  /** Messages deleted a moment ago, kept out of the list while their Undo is open. */
  hidden: ReadonlySet<string>
  selection: MessageSelection
  isUnread: (message: MessageSummary) => boolean
  /** A message is opened: it is read (and, on a burn-after-read address, burned). */
  onOpen: (message: MessageSummary) => void
  onDelete: (email: string, id: string) => void
  onCopy: (text: string) => void
  /** The server no longer has the address. */
  onGone: () => void
  /** Opens a message from elsewhere than its row (the delivery log's link). */
  onOpenMessage: (id: string) => void
  notify: Notify
  headingRef: Ref<HTMLHeadingElement>
  /** Where a new row appears: the new-mail pill and toast watch this line, not the whole tool. */
  listMarkerRef: Ref<HTMLDivElement>
}

/** The inbox of the address in use: its counts, search, messages page by page, and the delivery log. */
export function InboxSection(props: InboxSectionProps) {
  const { email, now, inbox, search, hidden, selection, notify, onGone } = props
  const { t } = useTranslation('email')
  const { checking, check } = useCheckInbox(email, notify, onGone)

  const loadOlder = async () => {
    try {
      await (search.active ? search.loadOlder() : inbox.loadOlder())
    } catch (error) {
      if (isGone(error)) onGone()
      else notify({ title: t('toast.errorTitle'), description: t('toast.loadOlderFailed'), variant: 'destructive' })
    }
  }

  const listed = search.active ? search : inbox
  const messages = listed.messages.filter((m) => !hidden.has(m.id))
  const total = listed.total - (listed.messages.length - messages.length)
  // A query the server refuses (too long, a bad date, is:unread) shows its sentence where the results would be.
  const searchError = search.active && search.error instanceof ApiError ? search.error.message : null

  return (
    <div className="mt-6">
      <InboxHeading
        headingRef={props.headingRef}
        count={search.active ? inbox.total : total}
        matches={search.active && !search.searching ? total : null}
        unread={inbox.unread}
        checking={checking}
        onCheck={() => void check()}
      />
      {(inbox.total > 0 || search.text !== '') && <SearchBox value={search.text} onChange={search.setText} onClear={search.clear} />}
      <div ref={props.listMarkerRef} aria-hidden />
      {messages.length === 0 ? (
        <p
          role={search.active ? 'status' : undefined}
          className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500 dark:border-slate-600 dark:text-slate-400"
        >
          {searchError ?? (search.active ? (search.searching ? '' : search.cut ? t('search.cut') : t('search.noMatches')) : t('empty'))}
        </p>
      ) : (
        <MessageList
          messages={messages}
          now={now}
          expandedId={selection.expandedId}
          isUnread={props.isUnread}
          onToggle={(id) => {
            const message = messages.find((m) => m.id === id)
            if (message && selection.expandedId !== id) props.onOpen(message)
            selection.toggle(id)
          }}
          onCopyCode={props.onCopy}
          renderExpanded={(message: MessageSummary) => (
            <MessageViewer
              address={email}
              id={message.id}
              onClose={() => selection.close(message.id)}
              onDelete={() => {
                selection.deselect()
                props.onDelete(email, message.id)
              }}
            />
          )}
        />
      )}
      <NewMailAlertsSettings />
      {search.active && search.cut && messages.length > 0 && (
        <p role="status" className="text-center text-sm text-slate-500 dark:text-slate-400">
          {t('search.cut')}
        </p>
      )}
      {(messages.length > 0 || (search.active && search.cut)) && (
        <OlderMessages shown={messages.length} total={total} hasMore={listed.hasMore} loading={listed.loadingOlder} onLoad={() => void loadOlder()} />
      )}
      <DeliveryLog email={email} onOpenMessage={props.onOpenMessage} />
    </div>
  )
}
