import { buttonVariants } from '@tempbox/ui'
import { Download, Trash2, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { rawUrl, useMessage } from '../api/message'
import { AttachmentList } from './attachment-list'
import { MailFrame } from './mail-frame'
import { isolateFileType } from '../lib/isolate-file-type'
import { PlainText } from './plain-text'
import { SenderCheck } from './sender-check'

const button = buttonVariants({ variant: 'outline', size: 'sm' })

interface MessageViewerProps {
  address: string
  id: string
  onClose: () => void
  /** The reader asked to delete it (the inbox offers Undo before the server deletes it). */
  onDelete: () => void
}

/** The expanded message: safe HTML or text, attachments, .eml download, headers, delete (issue 3). */
export function MessageViewer({ address, id, onClose, onDelete }: MessageViewerProps) {
  const { t, i18n } = useTranslation('email')
  const { data: message, error } = useMessage(address, id)
  const [view, setView] = useState<'html' | 'text' | null>(null)
  const [showRemote, setShowRemote] = useState(false)
  const [showHeaders, setShowHeaders] = useState(false)

  // Escape closes the open message, unless something above it (a dialog, a menu) takes the key first.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      if (document.querySelector('[role="dialog"], [role="menu"]')) return
      onClose()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [onClose])

  const closeButton = (
    <button type="button" onClick={onClose} className={button}>
      <X className="h-4 w-4" aria-hidden />
      {t('viewer.close')}
    </button>
  )

  if (error || !message) {
    return (
      <div className="flex items-center justify-between gap-2 p-3 sm:p-4">
        <p className="text-sm text-slate-600 dark:text-slate-400" role={error ? 'alert' : 'status'}>
          {error ? t('viewer.loadFailed') : t('viewer.loading')}
        </p>
        {closeButton}
      </div>
    )
  }

  const current = view ?? (message.html ? 'html' : 'text')
  const canToggle = Boolean(message.html) && message.hasTextPart
  const recipients = message.to.map((a) => (a.name ? `${a.name} <${a.address}>` : a.address)).join(', ')
  const date = new Date(message.date ?? message.receivedAt)

  return (
    <article className="space-y-3 p-2 sm:p-4" aria-label={message.subject || t('noSubject')}>
      <header className="space-y-1">
        <h4 dir="auto" className="break-words text-start text-base font-semibold text-slate-900 dark:text-slate-50">
          {message.subject || t('noSubject')}
        </h4>
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-sm text-slate-600 dark:text-slate-400">
          <dt className="font-medium">{t('viewer.from')}</dt>
          {/* The value keeps its own direction (bdi) but sits at the page's start, beside its label, in either direction. */}
          <dd className="text-start [overflow-wrap:anywhere]">
            <bdi>{message.sender}</bdi>
          </dd>
          {recipients && (
            <>
              <dt className="font-medium">{t('viewer.to')}</dt>
              <dd className="text-start [overflow-wrap:anywhere]">
                <bdi>{recipients}</bdi>
              </dd>
            </>
          )}
          <dt className="font-medium">{t('viewer.date')}</dt>
          <dd>
            <time dateTime={date.toISOString()}>{new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(date)}</time>
          </dd>
        </dl>
        <SenderCheck auth={message.auth} />
      </header>

      {canToggle && (
        <div role="group" aria-label={t('viewer.viewAs')} className="inline-flex rounded-md border border-slate-300 dark:border-slate-600">
          {(['html', 'text'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={current === v}
              onClick={() => setView(v)}
              className={
                'px-3 py-1 text-sm first:rounded-s-md last:rounded-e-md focus-visible:outline-2 focus-visible:outline-blue-600 ' +
                (current === v ? 'bg-blue-600 text-white dark:bg-blue-500' : 'text-slate-700 dark:text-slate-200')
              }
            >
              {t(`viewer.${v}`)}
            </button>
          ))}
        </div>
      )}

      {current === 'html' && message.html ? (
        <>
          {message.hasRemoteContent && !showRemote && (
            <div className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
              <span>{t('viewer.remoteBlocked')}</span>
              <button type="button" onClick={() => setShowRemote(true)} className={button}>
                {t('viewer.showImages')}
              </button>
            </div>
          )}
          <MailFrame address={address} id={id} showRemote={showRemote} />
        </>
      ) : (
        <>
          {message.htmlWithheld && (
            <p role="note" className="rounded-md bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
              {isolateFileType(t(message.htmlWithheld === 'too_large' ? 'viewer.htmlTooLarge' : 'viewer.htmlUnrenderable'))}
            </p>
          )}
          {message.contentTruncated && (
            <p role="note" className="rounded-md bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
              {isolateFileType(t('viewer.textTruncated'))}
            </p>
          )}
          <PlainText text={message.content} empty={t('viewer.empty')} />
        </>
      )}

      <AttachmentList address={address} id={id} message={message} />

      {showHeaders && (
        <div className="max-h-72 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-800 dark:bg-slate-800 dark:text-slate-100">
          <h5 className="sr-only">{t('viewer.headers')}</h5>
          <dl>
            {message.headers.map((h, i) => (
              <div key={`${h.name}-${i}`} className="break-all">
                <dt className="inline font-semibold">{h.name}:</dt>{' '}
                <dd className="inline">
                  {h.value}
                  {/* The server cut this value for display; the .eml download has it whole. */}
                  {h.truncated && <span>…</span>}
                </dd>
              </div>
            ))}
          </dl>
          {message.headersTruncated && <p>…</p>}
        </div>
      )}

      <div className="flex flex-wrap gap-2">
        <a href={rawUrl(address, id)} download={`${id}.eml`} className={button}>
          <Download className="h-4 w-4" aria-hidden />
          <span>{isolateFileType(t('viewer.downloadEml'))}</span>
        </a>
        <button type="button" aria-expanded={showHeaders} onClick={() => setShowHeaders((v) => !v)} className={button}>
          {showHeaders ? t('viewer.hideHeaders') : t('viewer.headers')}
        </button>
        <button type="button" onClick={onDelete} className={button}>
          <Trash2 className="h-4 w-4" aria-hidden />
          {t('viewer.delete')}
        </button>
        {closeButton}
      </div>
    </article>
  )
}
