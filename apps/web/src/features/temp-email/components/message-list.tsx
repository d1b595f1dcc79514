import type { MessageSummary } from '@tempbox/types'
import { Paperclip } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { messagePreview, parseSender, relativeTime } from '../lib/format'
import { VerificationActions } from './verification-actions'

interface MessageListProps {
  messages: MessageSummary[]
  now: number
  expandedId: string | null
  onToggle: (id: string) => void
  onCopyCode: (code: string) => void
  renderExpanded: (message: MessageSummary) => ReactNode
  /** Unread rows are shown in bold with an "Unread" mark for screen readers. */
  isUnread?: (message: MessageSummary) => boolean
}

/** The inbox: sender, relative time and a 100-character preview; one message expanded at a time. */
export function MessageList({ messages, now, expandedId, onToggle, onCopyCode, renderExpanded, isUnread = (m) => !m.read }: MessageListProps) {
  const { t } = useTranslation('email')
  return (
    <ul className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
      {messages.map((message) => {
        const expanded = message.id === expandedId
        const { name, address } = parseSender(message.sender)
        const age = relativeTime(message.receivedAt, now)
        const panelId = `message-panel-${message.id}`
        const preview = messagePreview(message.preview)
        const unread = isUnread(message)
        return (
          <li key={message.id} data-testid="inbox-message" data-unread={unread} className={expanded ? 'bg-slate-50 dark:bg-slate-800/60' : undefined}>
            <button
              type="button"
              id={`message-row-${message.id}`}
              aria-expanded={expanded}
              aria-controls={expanded ? panelId : undefined}
              onClick={() => onToggle(message.id)}
              className="block w-full px-3 py-3 text-start hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600 sm:px-4 dark:hover:bg-slate-800"
            >
              <span className="flex items-baseline justify-between gap-2">
                <span dir="auto" className={`min-w-0 truncate text-start text-slate-900 dark:text-slate-100 ${unread ? 'font-bold' : 'font-medium'}`} title={address}>
                  {unread && (
                    <span className="me-1.5 inline-block h-2 w-2 rounded-full bg-blue-600 align-middle dark:bg-blue-400" aria-hidden />
                  )}
                  {unread && <span className="sr-only">{t('alerts.unread')}: </span>}
                  {name ?? address}
                </span>
                <time dateTime={message.receivedAt} className="shrink-0 text-xs text-slate-500 dark:text-slate-400">
                  {t(`ago.${age.unit}`, { count: age.value })}
                </time>
              </span>
              <span className="mt-0.5 flex items-center gap-1 truncate text-sm text-slate-800 dark:text-slate-200">
                {message.attachmentCount > 0 && <Paperclip className="h-3 w-3 shrink-0" aria-label={t('hasAttachments')} />}
                <span dir={message.subject ? 'auto' : undefined} className={`min-w-0 truncate text-start ${unread ? 'font-semibold' : ''}`}>
                  {message.subject || t('noSubject')}
                </span>
              </span>
              {preview ? (
                <span dir="auto" className="mt-0.5 block text-start break-words text-sm text-slate-600 dark:text-slate-400">
                  {preview}
                </span>
              ) : (
                <span className="mt-0.5 block text-sm text-slate-600 italic dark:text-slate-400">{t('noText')}</span>
              )}
            </button>
            <VerificationActions verification={message.verification} onCopy={onCopyCode} />
            {expanded && (
              <div id={panelId} className="border-t border-slate-200 dark:border-slate-700">
                {renderExpanded(message)}
              </div>
            )}
          </li>
        )
      })}
    </ul>
  )
}
